package io.idempotent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent in a Spring Boot fat jar built by spring-boot-maven-plugin's {@code repackage}:
 * {@code java -javaagent:idempotent-javaagent.jar -jar app.jar}, where the tools, their bindings
 * and the runtime load through Boot's launcher class loader from the jars nested in the fat jar.
 * Two JVMs run {@link io.idempotent.examples.agent.RefundSession} on one directory: the first
 * loses the provider's reply and retries, the second replays the session.
 */
class BootJarIT {

    private static Path bootJar;
    private static Path dir;

    @BeforeAll
    static void locate() throws IOException {
        bootJar = Path.of(System.getProperty("build.boot.jar"));
        assertThat(bootJar).exists();
        dir = Path.of(System.getProperty("build.demo.dir")).resolveSibling("boot-it");
        deleteRecursively(dir);
    }

    @Test
    void isARealBootJarWithTheRuntimeNestedAndNoAgentInside() throws IOException {
        try (JarFile jar = new JarFile(bootJar.toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                    .startsWith("org.springframework.boot.loader.");
            assertThat(jar.getManifest().getMainAttributes().getValue("Start-Class"))
                    .isEqualTo("io.idempotent.examples.agent.RefundSession");
            List<String> names = jar.stream().map(e -> e.getName()).toList();
            assertThat(names).anyMatch(n -> n.matches("BOOT-INF/lib/idempotent-runtime-.*\\.jar"))
                    .contains("BOOT-INF/classes/io/idempotent/examples/tools/RefundTools_IdempotentTools.class")
                    // Boot moves META-INF resources to the jar's root, where the agent reads them.
                    .contains("META-INF/idempotent/tools.json")
                    .noneMatch(n -> n.contains("idempotent-javaagent"));
        }
    }

    @Test
    void theToolsAreWrappedInsideTheBootJarAndAReplayAddsNoEffect() throws Exception {
        String first = runSession();
        // Lost reply, retried under the same key: the provider was reached twice and refunded once.
        assertThat(first).contains("status=COMPLETED").contains("psp.invocations=2").contains("psp.effects=1")
                // The tools live in BOOT-INF/classes, which only Boot's loader loads: each class says when it is wrapped.
                .contains("[idempotent-agent] started: will wrap 5 tool method(s) when the application's class loader"
                        + " loads their classes (a line each); 5 listed in META-INF/idempotent/tools.json in a Spring"
                        + " Boot jar")
                .doesNotContain("wrapped 0")
                .containsPattern("\\[idempotent-agent\\] [\\w.$]+: wrapped [1-9]\\d* tool method\\(s\\)")
                .doesNotContain("[idempotent-agent] ERROR");

        String second = runSession();
        // The operator's replay is answered from the store: the provider is not reached again.
        assertThat(second).contains("status=COMPLETED").contains("psp.invocations=2").contains("psp.effects=1")
                .doesNotContain("[idempotent-agent] ERROR");
        assertThat(resultLine(second)).isEqualTo(resultLine(first));
        assertThat(attempts(second)).isGreaterThan(attempts(first));
    }

    @Test
    void failOnMissingRuntimeFindsTheRuntimeNestedInTheBootJar() throws Exception {
        // The runtime is in BOOT-INF/lib/, which the system class loader never sees: the agent must still start.
        String output = runSession("=failOnMissingRuntime=true");
        assertThat(output).contains("status=COMPLETED").contains("[idempotent-agent] started")
                .doesNotContain("[idempotent-agent] ERROR");
    }

    private static String runSession() throws Exception {
        return runSession("");
    }

    private static String runSession(String agentArguments) throws Exception {
        String agentJar = System.getProperty("build.demo.agentJar");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + agentJar + agentArguments, "-Dbuild.demo.dir=" + dir, "-jar",
                bootJar.toString());
        Path log = Files.createTempFile("boot-session", ".log");
        Process session = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = session.waitFor(2, TimeUnit.MINUTES);
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (!finished) {
            session.destroyForcibly();
        }
        assertThat(finished).as("the session finished; output:%n%s", output).isTrue();
        assertThat(session.exitValue()).as("exit code; output:%n%s", output).isZero();
        return output;
    }

    private static String resultLine(String output) {
        return output.lines().filter(l -> l.startsWith("result: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no result line in:\n" + output));
    }

    private static int attempts(String output) {
        return output.lines().filter(l -> l.startsWith("attempts=")).findFirst()
                .map(l -> Integer.parseInt(l.substring("attempts=".length())))
                .orElseThrow(() -> new AssertionError("no attempts line in:\n" + output));
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> all = Files.walk(path)) {
            for (Path p : all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(p);
            }
        }
    }
}
