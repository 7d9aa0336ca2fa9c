package io.idempotent.runtime.readiness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.ToolReadiness;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's readiness view in a JVM without the agent: a listed tool whose class the build
 * plugin wove runs through the protocol, one whose class loaded plain or does not exist does not,
 * and the JVM is then not ready. And the message a body gets when it asks for its context
 * unwrapped names both ways to wrap it.
 */
class ToolReadinessTest {

    @TempDir
    Path tables;

    @Test
    void listedToolsThatAreNeitherWovenNorWrappedMakeTheJvmNotReady() throws Exception {
        Path table = tables.resolve("META-INF/idempotent/tools.json");
        Files.createDirectories(table.getParent());
        Files.writeString(table, "{\"tools\": ["
                + tool("wovenTool", ReadinessFixtures.class.getCanonicalName() + ".WovenTools", "wovenTool(java.lang.String id)")
                + "," + tool("plainTool", ReadinessFixtures.class.getCanonicalName() + ".PlainTools",
                        "plainTool(java.lang.String id)")
                + "," + tool("goneTool", "com.example.GoneTools", "goneTool(java.lang.String id)") + "]}");
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {tables.toUri().toURL()}, getClass().getClassLoader())) {
            Thread.currentThread().setContextClassLoader(loader);
            ToolReadiness readiness = ToolReadiness.current();

            assertThat(readiness.agentStarted()).isFalse();
            assertThat(readiness.listed()).contains("wovenTool", "plainTool", "goneTool");
            assertThat(readiness.wrapped()).contains("wovenTool").doesNotContain("plainTool", "goneTool");
            assertThat(readiness.unwrapped()).contains("plainTool", "goneTool").doesNotContain("wovenTool");
            assertThat(readiness.ready()).isFalse();
            assertThat(readiness.describe()).startsWith("not ready: ").contains("plainTool").contains("-javaagent");
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    @Test
    void aBodyThatAsksForItsContextUnwrappedIsToldHowToWrapIt() {
        assertThatThrownBy(OperationContext::current).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("-javaagent:idempotent-javaagent.jar")
                .hasMessageContaining("io.idempotent.build.IdempotentPlugin");
    }

    private static String tool(String name, String className, String method) {
        return "{\"name\": \"" + name + "\", \"class\": \"" + className + "\", \"method\": \"" + method + "\"}";
    }
}
