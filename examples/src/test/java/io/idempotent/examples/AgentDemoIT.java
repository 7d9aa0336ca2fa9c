package io.idempotent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the demo exactly as the README does (a forked JVM with the agent on the built jar) and
 * checks its own table: every injected failure ended with exactly the intended business effects
 * at the providers, and the uncertain email was reconciled, not re-sent.
 */
class AgentDemoIT {

    private static String output;
    private static Properties summary;

    @BeforeAll
    static void runTheDemo() throws Exception {
        Path dir = Path.of(System.getProperty("idempotent.demo.dir"));
        String agentJar = System.getProperty("idempotent.demo.agentJar");
        assertThat(Path.of(agentJar)).exists();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-javaagent:" + agentJar, "-Didempotent.demo.agentJar=" + agentJar,
                "-Didempotent.demo.dir=" + dir, "-cp", System.getProperty("java.class.path"),
                "io.idempotent.examples.agent.AgentDemo"));
        Path log = Files.createTempFile("agent-demo", ".log");
        Process demo = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = demo.waitFor(3, TimeUnit.MINUTES);
        output = Files.readString(log, StandardCharsets.UTF_8);
        if (!finished) {
            demo.destroyForcibly();
        }
        assertThat(finished).as("the demo finished; output:%n%s", output).isTrue();
        assertThat(demo.exitValue()).as("exit code; output:%n%s", output).isZero();
        summary = new Properties();
        try (Reader r = Files.newBufferedReader(dir.resolve("summary.properties"))) {
            summary.load(r);
        } catch (IOException e) {
            throw new AssertionError("no summary; output:\n" + output, e);
        }
    }

    private static long value(String key) {
        String v = summary.getProperty(key);
        assertThat(v).as(key + " in the summary").isNotNull();
        return Long.parseLong(v);
    }

    @Test
    void theAgentWrappedEveryToolWithoutErrors() {
        assertThat(output).contains("[idempotent-agent] started").contains("3 tool(s) to wrap")
                .doesNotContain("[idempotent-agent] ERROR");
        // The worker JVM died inside the body, after the provider committed.
        assertThat(output).contains("worker: mail committed; the worker dies now").contains("worker exited with 3");
    }

    @Test
    void refundsHappenedOncePerApprovalDespiteALostReplyATimeoutAndAChangedAmount() {
        assertThat(value("issue_refund.businessEffects")).isEqualTo(2);
        // The lost reply was re-sent under the same key and the provider answered from its store.
        assertThat(value("issue_refund.providerInvocations")).isEqualTo(3);
        assertThat(value("issue_refund.conflicts")).isEqualTo(2);
        assertThat(value("issue_refund.replays")).isEqualTo(5);
        assertThat(value("issue_refund.completedOperations")).isEqualTo(2);
        assertThat(value("issue_refund.stillAwaitingReconciliation")).isZero();
        assertThat(output).contains("OperationInProgressException (retryable: wait");
    }

    @Test
    void theUncertainEmailWasReconciledNotResent() {
        assertThat(value("send_welcome_email.businessEffects")).isEqualTo(1);
        assertThat(value("send_welcome_email.providerInvocations")).isEqualTo(1);
        assertThat(value("send_welcome_email.enteredReconciliation")).isEqualTo(1);
        assertThat(value("send_welcome_email.reconciledApplied")).isEqualTo(1);
        assertThat(value("send_welcome_email.stillAwaitingReconciliation")).isZero();
        assertThat(summary.getProperty("incident.outcomes").split(",")).startsWith("RUNNING")
                .contains("LEASE_EXPIRED", "RECONCILED_APPLIED", "REPLAYED").doesNotContain("COMPLETED");
    }

    @Test
    void theDeploymentConverged() {
        assertThat(value("set_target_version.businessEffects")).isEqualTo(1);
        assertThat(value("set_target_version.providerInvocations")).isEqualTo(2);
        assertThat(value("set_target_version.reconciledApplied")).isEqualTo(1);
        assertThat(value("set_target_version.completedOperations")).isEqualTo(2);
    }

    @Test
    void theOperatorsReplayAddedNoEffect() {
        assertThat(output).contains("== Run 2: an operator replays the whole run");
        String replay = output.substring(output.indexOf("== Run 2"));
        assertThat(replay).doesNotContain("runtime: ").contains("PayloadConflictException");
    }
}
