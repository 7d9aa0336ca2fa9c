package io.idempotent.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The built agent jar: its manifest, and nothing inside but the agent and its shaded Byte Buddy. */
class AgentJarIT {

    private static final Path JAR = Path.of(System.getProperty("build.agent.jar"));

    @Test
    void manifestNamesTheEntryPointsAndAllowsRetransformation() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue("Premain-Class")).isEqualTo(IdempotentAgent.class.getName());
            assertThat(main.getValue("Agent-Class")).isEqualTo(IdempotentAgent.class.getName());
            assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
        }
    }

    @Test
    void containsOnlyTheAgentAndTheRelocatedByteBuddy() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            List<String> names = jar.stream().map(JarEntry::getName).toList();
            assertThat(names).contains("io/idempotent/agent/IdempotentAgent.class",
                    "io/idempotent/agent/shaded/bytebuddy/agent/builder/AgentBuilder.class",
                    "io/idempotent/agent/shaded/policy/internal/StoreKeys.class");
            assertThat(names).allSatisfy(name -> assertThat(name).matches(
                    "META-INF/.*|io/|io/idempotent/|io/idempotent/agent/.*"));
            // Not the runtime, not the annotations, not an unrelocated Byte Buddy or ASM.
            assertThat(names).noneMatch(n -> n.startsWith("io/idempotent/runtime/")
                    || n.startsWith("io/idempotent/policy/")
                    || n.startsWith("io/idempotent/annotations/") || n.startsWith("net/") || n.startsWith("org/"));
            assertThat(names).filteredOn(n -> n.endsWith(".class") && n.startsWith("META-INF/")).isEmpty();
        }
    }
}
