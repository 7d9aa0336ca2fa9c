package io.idempotent.examples.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example as the Spring Boot fat jar that {@code spring-boot-maven-plugin} made of it, started
 * as docs/frameworks.md says ("The recommended setup") in a forked JVM with the agent and its own
 * store directory, {@code java -javaagent:idempotent-javaagent.jar=store.url=... -jar
 * idempotent-example-spring-boot.jar}, the tool class loaded by Boot's class loader from
 * BOOT-INF/classes: what each of the three decisions answered and left.
 */
class RefundAgentFatJarIT {

    /** What the application printed, once it ended. */
    private static String output;

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

    /** The agent's option naming a fresh store under {@code dir}. */
    private static String agent(Path dir) {
        String store = "jdbc:h2:file:" + dir.resolve("operations").toAbsolutePath();
        return "-javaagent:" + System.getProperty("build.test.agentJar") + "=store.url=" + store;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs {@code command} (its store under {@code dir}) to its end, exit code 0, and keeps its output. */
    private static void run(Path dir, List<String> command) throws Exception {
        Path log = dir.resolve("app.log");
        Process app = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = app.waitFor(3, TimeUnit.MINUTES);
        output = Files.readString(log, StandardCharsets.UTF_8);
        if (!finished) {
            app.destroyForcibly();
        }
        assertThat(finished).as("the application finished; output:%n%s", output).isTrue();
        assertThat(app.exitValue()).as("exit code; output:%n%s", output).isZero();
    }

    private static String line(String prefix) {
        return output.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line " + prefix + " in:\n" + output));
    }

    @Test
    void theAgentRanWithoutErrorsAndTheAutoConfigurationRegisteredTheIdempotentProcessor() {
        assertThat(output).contains("[idempotent-agent] started: ").doesNotContain("[idempotent-agent] ERROR");
        // The tool bean is @Transactional, so Spring made it a CGLIB proxy.
        assertThat(line("processor=")).isEqualTo("processor=IdempotentToolExecutionExceptionProcessor cglib=true");
    }

    @Test
    void theModelsRepeatedCallReplaysThroughTheProxyWithOneEffectAndOneAttempt() {
        assertThat(line("repeat: answer=")).contains("\"amountCents\":1250").contains("\"refundId\":\"re_1_");
        // Wrapped once: the proxy's override is no @IdempotentTool method of its own.
        assertThat(line("repeat: psp")).isEqualTo("repeat: psp.requests=1 psp.effects=1 rows=1 status=COMPLETED"
                + " attempts=1");
    }

    @Test
    void changedArgumentsUnderTheSameDecisionAreAConflictForTheModel() {
        assertThat(line("conflict: answer=")).isEqualTo("conflict: answer={\"error\":\"conflict\",\"tool\":"
                + "\"issue_refund\",\"message\":\"this decision was already executed with different arguments: do"
                + " not retry with changed arguments\"}");
        assertThat(line("conflict: psp")).isEqualTo("conflict: psp.requests=2 psp.effects=2 rows=1 status=COMPLETED"
                + " attempts=1");
    }

    @Test
    void theOperationRecordDoesNotRollBackWithTheBusinessTransaction() {
        // The provider refunded, its reply was lost, the body threw: the business row rolled back,
        // but the operation record (the runtime's own connection) kept the uncertainty, and the
        // model's repeat is told to stop and tell the user instead of re-running the refund.
        assertThat(line("lost-reply: psp")).isEqualTo("lost-reply: psp.requests=3 psp.effects=3 rows=0"
                + " status=NEEDS_RECONCILIATION attempts=1");
        assertThat(line("lost-reply: answer=")).isEqualTo("lost-reply: answer={\"error\":\"in_review\",\"tool\":"
                + "\"issue_refund\",\"message\":\"the outcome is unknown and has gone to review: do not retry, tell"
                + " the user\"}");
    }
}
