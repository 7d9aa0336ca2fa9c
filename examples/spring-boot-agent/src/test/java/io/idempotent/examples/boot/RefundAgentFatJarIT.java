package io.idempotent.examples.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example as the Spring Boot fat jar that {@code spring-boot-maven-plugin} made of it,
 * {@code java -javaagent:idempotent-javaagent.jar=store.url=... -jar idempotent-example-spring-boot.jar}:
 * the same answers as on a class path (one refund and its replay, the changed amount refused, the
 * lost reply in review), with the tool class loaded by Boot's class loader from BOOT-INF/classes.
 */
class RefundAgentFatJarIT extends RefundAgentRun {

    @BeforeAll
    static void runTheFatJar() throws Exception {
        Path jar = Path.of(System.getProperty("build.test.bootJar"));
        Path dir = Files.createTempDirectory("boot-agent-jar");
        run(dir, List.of(java(), agent(dir), "-jar", jar.toString()));
    }

    @Test
    void theJarIsABootFatJarStartedByTheBootLauncher() throws Exception {
        try (JarFile jar = new JarFile(System.getProperty("build.test.bootJar"))) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                    .startsWith("org.springframework.boot.loader.");
            assertThat(jar.getManifest().getMainAttributes().getValue("Start-Class"))
                    .isEqualTo(RefundAgentApplication.class.getName());
            // Boot's repackage moves META-INF to the jar's root; the classes stay under BOOT-INF/classes.
            assertThat(jar.getEntry("META-INF/idempotent/tools.json")).isNotNull();
            assertThat(jar.getEntry("BOOT-INF/classes/io/idempotent/examples/boot/RefundTools.class")).isNotNull();
            assertThat(jar.stream().map(e -> e.getName()))
                    .anyMatch(n -> n.startsWith("BOOT-INF/lib/idempotent-runtime-"));
        }
    }
}
