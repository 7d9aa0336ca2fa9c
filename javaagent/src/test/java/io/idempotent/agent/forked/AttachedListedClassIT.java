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
        String output = run("com.example.EarlyTools.class.getName()", "new LateTools().lookup(\"invoice_1\")", false);

        assertThat(output).as("output").contains("loaded before the attach: com.example.EarlyTools")
                .contains("[idempotent-agent] started: wrapped ")
                .contains("claimed: late:invoice_1")
                .doesNotContain("refused:").doesNotContain("[idempotent-agent] ERROR");
    }

    /**
     * The same, where the loaded class's own loader loads the second class when the agent asks it
     * for the release-gate tables, inside the first class's transformation (a class loaded there,
     * by whatever means, is left unchanged): the check at the end of the start finds the second
     * class loaded but never transformed, and retransforms it.
     */
    @Test
    void aListedClassLoadedInsideAnotherTransformationIsRetransformedAtTheEndOfTheStart() throws Exception {
        String output = run("Class.forName(\"com.example.EarlyTools\", false, eager(args[2])).getName()",
                "(String) Class.forName(\"com.example.LateTools\", true, eager(args[2])).getMethod(\"lookup\","
                        + " String.class).invoke(Class.forName(\"com.example.LateTools\", true, eager(args[2]))"
                        + ".getConstructor().newInstance(), \"invoice_1\")", true);

        assertThat(output).as("output").contains("loaded before the attach: com.example.EarlyTools")
                .contains("[idempotent-agent] started: ")
                .contains("claimed: late:invoice_1")
                .doesNotContain("refused:").doesNotContain("[idempotent-agent] ERROR");
    }

    /**
     * Compiles LateTools, EarlyTools (naming LateTools) and a main that runs {@code early} before
     * attaching the agent to itself and prints what {@code call} answers; with {@code hidden}, the
     * tool classes are only in a directory of their own, loaded child-first by a loader that loads
     * LateTools when asked for resources.
     */
    private String run(String early, String call, boolean hidden) throws Exception {
        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Path tools = hidden ? dir.resolve("tools") : classes;
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
                    // Names LateTools: describing this loaded class by reflection loads LateTools.
                    public static String describe(LateTools tools) {
                        return String.valueOf(tools);
                    }
                }
                """.formatted(tool.formatted("early")));
        write(src.resolve("com/example/AttachingMain.java"), """
                package com.example;
                import com.sun.tools.attach.VirtualMachine;
                import java.net.URL;
                import java.net.URLClassLoader;
                public class AttachingMain {
                    private static ClassLoader eager;
                    public static void main(String[] args) throws Exception {
                        System.out.println("loaded before the attach: " + %s);
                        VirtualMachine vm = VirtualMachine.attach(String.valueOf(ProcessHandle.current().pid()));
                        try {
                            vm.loadAgent(args[0], args[1]);
                        } finally {
                            vm.detach();
                        }
                        try {
                            System.out.println("claimed: " + %s);
                        } catch (Exception e) {
                            System.out.println("refused: " + (e.getCause() != null ? e.getCause() : e));
                        }
                    }
                    // Child-first for the two tool classes; loads LateTools when asked for resources.
                    static synchronized ClassLoader eager(String dir) throws Exception {
                        if (eager == null) {
                            eager = new URLClassLoader(new URL[] {java.nio.file.Path.of(dir).toUri().toURL()},
                                    AttachingMain.class.getClassLoader()) {
                                @Override
                                protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                                    if (name.equals("com.example.EarlyTools") || name.equals("com.example.LateTools")) {
                                        synchronized (getClassLoadingLock(name)) {
                                            Class<?> c = findLoadedClass(name);
                                            return c != null ? c : findClass(name);
                                        }
                                    }
                                    return super.loadClass(name, resolve);
                                }
                                @Override
                                public java.util.Enumeration<URL> getResources(String name) throws java.io.IOException {
                                    try {
                                        loadClass("com.example.LateTools");
                                    } catch (ClassNotFoundException e) {
                                        throw new java.io.IOException(e);
                                    }
                                    return super.getResources(name);
                                }
                            };
                        }
                        return eager;
                    }
                }
                """.formatted(early, call));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, "-d", tools.toString(), "-cp", ForkedProbe.applicationClassPath(),
                src.resolve("com/example/LateTools.java").toString(),
                src.resolve("com/example/EarlyTools.java").toString())).isZero();
        assertThat(javac.run(null, null, null, "-d", classes.toString(), "-proc:none", "-cp",
                tools + File.pathSeparator + ForkedProbe.applicationClassPath(),
                src.resolve("com/example/AttachingMain.java").toString())).isZero();
        if (hidden) {
            // The table stays on the class path (the application's packaging); the classes only in the eager loader.
            Files.createDirectories(classes.resolve("META-INF/idempotent"));
            Files.move(tools.resolve("META-INF/idempotent/tools.json"), classes.resolve("META-INF/idempotent/tools.json"));
        }
        assertThat(classes.resolve("META-INF/idempotent/tools.json")).exists();

        Path log = dir.resolve("run.log");
        Process process = new ProcessBuilder(Jdk.current().java().toString(), "-Djdk.attach.allowAttachSelf=true",
                "-XX:+EnableDynamicAgentLoading", "-cp", classes + File.pathSeparator
                        + ForkedProbe.applicationClassPath(), "com.example.AttachingMain",
                ForkedProbe.agentJar().toString(), "store.url=jdbc:h2:mem:attached", tools.toString())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
