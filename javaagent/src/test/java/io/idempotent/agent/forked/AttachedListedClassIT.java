package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent attached to a running JVM (agentmain) while a listed tool class is loaded and names
 * another listed tool class, not yet loaded, in a method's signature: retransforming the first
 * loaded the second inside the agent's own transformation, where Byte Buddy leaves a nested class
 * unchanged, so its tool ran plain, with no claim and no ERROR. Every listed tool must run through
 * the protocol (or refuse its calls with an ERROR naming it).
 */
class AttachedListedClassIT {

    @TempDir
    Path dir;

    @Test
    void aListedClassLoadedByTheAttachItselfRunsThroughTheProtocol() throws Exception {
        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        String tool = "@io.idempotent.annotations.IdempotentTool(key = \"%s:{id}\", downstreamKey = true,"
                + " downstreamRetention = \"P1D\", retry = io.idempotent.annotations.Retry.SAFE)";
        write(src.resolve("com/example/LateTools.java"), """
                package com.example;
                public class LateTools {
                    %s
                    public String lookup(String id) {
                        System.out.println("BODY RAN");
                        return io.idempotent.runtime.OperationContext.current().key();
                    }
                }
                """.formatted(tool.formatted("late")));
        write(src.resolve("com/example/EarlyTools.java"), """
                package com.example;
                public class EarlyTools {
                    %s
                    public String serve(String id) {
                        return id;
                    }
                    // Names LateTools: describing this loaded class loads LateTools.
                    public static String describe(LateTools tools) {
                        return String.valueOf(tools);
                    }
                }
                """.formatted(tool.formatted("early")));
        write(src.resolve("com/example/AttachingMain.java"), """
                package com.example;
                import com.sun.tools.attach.VirtualMachine;
                public class AttachingMain {
                    public static void main(String[] args) throws Exception {
                        System.out.println("loaded before the attach: " + EarlyTools.class.getName());
                        VirtualMachine vm = VirtualMachine.attach(String.valueOf(ProcessHandle.current().pid()));
                        try {
                            vm.loadAgent(args[0], args[1]);
                        } finally {
                            vm.detach();
                        }
                        try {
                            System.out.println("claimed: " + new LateTools().lookup("invoice_1"));
                        } catch (RuntimeException e) {
                            System.out.println("refused: " + e);
                        }
                    }
                }
                """);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, "-d", classes.toString(), "-cp", ForkedProbe.applicationClassPath(),
                src.resolve("com/example/LateTools.java").toString(),
                src.resolve("com/example/EarlyTools.java").toString(),
                src.resolve("com/example/AttachingMain.java").toString())).isZero();
        assertThat(classes.resolve("META-INF/idempotent/tools.json")).exists();

        Path log = dir.resolve("run.log");
        Process process = new ProcessBuilder(Jdk.current().java().toString(), "-Djdk.attach.allowAttachSelf=true",
                "-XX:+EnableDynamicAgentLoading", "-cp", classes + File.pathSeparator
                        + ForkedProbe.applicationClassPath(), "com.example.AttachingMain",
                ForkedProbe.agentJar().toString(), "store.url=jdbc:h2:mem:attached")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);

        assertThat(output).as("output").contains("loaded before the attach: com.example.EarlyTools")
                .contains("[idempotent-agent] started: wrapped ")
                .contains("claimed: late:invoice_1")
                .doesNotContain("refused:").doesNotContain("[idempotent-agent] ERROR");
    }

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
