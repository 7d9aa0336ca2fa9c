package io.idempotent.runtime.readiness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.ToolReadiness;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.concurrent.atomic.AtomicInteger;
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

    /**
     * A readiness probe (a health check asks every few seconds) read every tools.json on the
     * class path again each time; the tables of a class loader do not change, so they are read
     * once per loader, and every later probe judges the same tools.
     */
    @Test
    void probesReadTheTablesOfAClassLoaderOnce() throws Exception {
        Path table = tables.resolve("META-INF/idempotent/tools.json");
        Files.createDirectories(table.getParent());
        Files.writeString(table, "{\"tools\": [" + tool("plainTool", ReadinessFixtures.class.getCanonicalName()
                + ".PlainTools", "plainTool(java.lang.String id)") + "]}");
        AtomicInteger reads = new AtomicInteger();
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {tables.toUri().toURL()}, getClass().getClassLoader()) {
            @Override
            public Enumeration<URL> getResources(String name) throws IOException {
                if (name.equals("META-INF/idempotent/tools.json")) {
                    reads.incrementAndGet();
                }
                return super.getResources(name);
            }
        }) {
            Thread.currentThread().setContextClassLoader(loader);
            for (int probe = 0; probe < 3; probe++) {
                assertThat(ToolReadiness.current().unwrapped()).as("probe " + probe).contains("plainTool");
            }
            assertThat(reads).as("reads of the context loader's tables").hasValue(1);
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    private static String tool(String name, String className, String method) {
        return "{\"name\": \"" + name + "\", \"class\": \"" + className + "\", \"method\": \"" + method + "\"}";
    }
}
