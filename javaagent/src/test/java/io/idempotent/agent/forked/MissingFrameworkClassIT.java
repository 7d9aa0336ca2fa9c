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
 * A listed tool whose parameter is an optional framework class (Spring AI's {@code ToolContext})
 * that is missing from the class path at run time: the agent's ERROR names that class and the
 * dependency that brings it, instead of saying that the class has no such method, and the body
 * never runs. The tool class is compiled here against a stand-in ToolContext, which is then left
 * out of the forked JVM's class path.
 */
class MissingFrameworkClassIT {

    @TempDir
    Path dir;

    @Test
    void theErrorNamesTheMissingClassAndItsDependencyAndTheBodyNeverRuns() throws Exception {
        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        write(src.resolve("org/springframework/ai/chat/model/ToolContext.java"),
                "package org.springframework.ai.chat.model; public class ToolContext { }");
        write(src.resolve("com/example/ContextTools.java"), """
                package com.example;
                public class ContextTools {
                    public String issueRefund(String invoiceId, org.springframework.ai.chat.model.ToolContext context) {
                        System.out.println("BODY RAN");
                        return invoiceId;
                    }
                    public static void main(String[] args) {
                        try {
                            new ContextTools().issueRefund("invoice_1", null);
                        } catch (RuntimeException | LinkageError e) {
                            System.out.println("refused: " + e.getClass().getName());
                        }
                    }
                }
                """);
        write(classes.resolve("META-INF/idempotent/tools.json"), "{\"tools\": [{\"name\": \"issue_refund\", \"class\":"
                + " \"com.example.ContextTools\", \"method\": \"issueRefund(java.lang.String invoiceId,"
                + " org.springframework.ai.chat.model.ToolContext context)\"}]}");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, "-d", classes.toString(),
                src.resolve("org/springframework/ai/chat/model/ToolContext.java").toString(),
                src.resolve("com/example/ContextTools.java").toString())).isZero();
        Files.delete(classes.resolve("org/springframework/ai/chat/model/ToolContext.class"));

        Path log = dir.resolve("run.log");
        Process process = new ProcessBuilder(Jdk.current().java().toString(), "-javaagent:" + ForkedProbe.agentJar(),
                "-cp", classes + File.pathSeparator + ForkedProbe.applicationClassPath(), "com.example.ContextTools")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);

        assertThat(output).as("output").contains("[idempotent-agent] ERROR com.example.ContextTools's tool issue_refund"
                + " (issueRefund(java.lang.String invoiceId, org.springframework.ai.chat.model.ToolContext context))"
                + " cannot be wrapped: org.springframework.ai.chat.model.ToolContext is not on the class path at run"
                + " time: add Spring AI (org.springframework.ai:spring-ai-model)")
                .doesNotContain("has no method").doesNotContain("idempotent-runtime is not visible")
                .doesNotContain("BODY RAN");
        // Every later line about the class names the missing class too, not only Byte Buddy's exception.
        assertThat(output.lines().filter(l -> l.contains("could not")))
                .allMatch(l -> l.contains("add Spring AI (org.springframework.ai:spring-ai-model)"));
    }

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

}
