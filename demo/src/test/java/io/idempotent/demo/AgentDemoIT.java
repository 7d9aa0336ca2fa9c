package io.idempotent.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the demo exactly as the README does (a forked JVM with the agent on the built jar, and the
 * built idem jar for the operator's approval) and
 * checks its own table: every injected failure ended with exactly the intended business effects
 * at the providers, and the uncertain email was reconciled, not re-sent.
 */
class AgentDemoIT {

    /** A row of the printed table: tool, seven meter figures, "(n left)", provider hits and effects. */
    private static final Pattern TABLE_ROW = Pattern.compile("(?m)^(\\S+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+)"
            + " +(\\d+) \\((\\d+) left\\) +(\\d+) +(\\d+) +(\\d+)$");

    private static String output;
    private static Properties summary;
    private static Map<String, Long> meterFiles;

    @BeforeAll
    static void runTheDemo() throws Exception {
        Path dir = Path.of(System.getProperty("build.demo.dir"));
        String agentJar = System.getProperty("build.demo.agentJar");
        assertThat(Path.of(agentJar)).exists();
        String cliJar = System.getProperty("build.demo.cliJar");
        assertThat(Path.of(cliJar)).exists();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-javaagent:" + agentJar, "-Dbuild.demo.agentJar=" + agentJar,
                "-Dbuild.demo.cliJar=" + cliJar,
                "-Dbuild.demo.dir=" + dir, "-cp", System.getProperty("java.class.path"),
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
        meterFiles = sumOfMeterFiles(dir.resolve("meters"));
    }

    /** Every JVM's published counters, summed here independently of the demo's own reading. */
    private static Map<String, Long> sumOfMeterFiles(Path meters) throws IOException {
        Map<String, Long> total = new HashMap<>();
        List<Path> files;
        try (Stream<Path> list = Files.list(meters)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".properties")).toList();
        }
        // The demo's JVM and the worker that died: each published at least once.
        assertThat(files).as("meters files").hasSize(2);
        for (Path f : files) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(f)) {
                p.load(r);
            }
            p.stringPropertyNames().forEach(k -> total.merge(k, Long.parseLong(p.getProperty(k)), Long::sum));
        }
        return total;
    }

    private static long meter(String tool, String series) {
        return meterFiles.getOrDefault(tool + "." + series, 0L);
    }

    /** The printed table's row of {@code tool}, as numbers in the order of its columns. */
    private static long[] printedRow(String tool) {
        Matcher m = TABLE_ROW.matcher(output);
        List<long[]> rows = new ArrayList<>();
        while (m.find()) {
            if (m.group(1).equals(tool)) {
                long[] row = new long[m.groupCount() - 1];
                for (int i = 0; i < row.length; i++) {
                    row[i] = Long.parseLong(m.group(i + 2));
                }
                rows.add(row);
            }
        }
        assertThat(rows).as("the table's row of %s in:%n%s", tool, output).hasSize(1);
        return rows.get(0);
    }

    private static long value(String key) {
        String v = summary.getProperty(key);
        assertThat(v).as(key + " in the summary").isNotNull();
        return Long.parseLong(v);
    }

    @Test
    void theAgentWrappedEveryToolWithoutErrors() {
        assertThat(output).contains("[idempotent-agent] started: wrapped 4 tool method(s), 4 listed in")
                .doesNotContain("[idempotent-agent] ERROR");
        // The worker JVM died inside the body, after the provider committed.
        assertThat(output).contains("worker: mail committed; the worker dies now").contains("worker exited with 3");
    }

    /**
     * The README's quick start shows the block the demo prints, from the table's header to the end
     * of "Where the meters and the attempt log differ", line for line and figure for figure (spacing
     * aside); a figure marked {@code *} there varies from run to run and stands for any number.
     */
    @Test
    void theReadmeShowsWhatTheDemoPrints() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int quickStart = readme.indexOf("\n## Quick start");
        int start = readme.indexOf("```\ntool ", quickStart);
        assertThat(start).as("the README's quick-start table").isPositive();
        List<String> shown = readme.substring(start + 4, readme.indexOf("```", start + 4)).lines().toList();
        List<String> printed = output.lines().dropWhile(l -> !l.startsWith("tool ")).limit(shown.size()).toList();
        assertThat(printed).as("the demo's table; output:%n%s", output).hasSameSizeAs(shown);
        for (int i = 0; i < shown.size(); i++) {
            assertThat(printed.get(i).strip()).as("line %d of the README's table, %s", i + 1, shown.get(i))
                    .matches(lineMatching(shown.get(i)));
        }
    }

    /** A pattern for a shown line: its words in order, any spacing, {@code N*} any number. */
    private static Pattern lineMatching(String shown) {
        List<String> words = new ArrayList<>();
        for (String word : shown.strip().split(" +")) {
            StringBuilder w = new StringBuilder();
            Matcher varying = Pattern.compile("\\d+\\*").matcher(word);
            int at = 0;
            while (varying.find()) {
                w.append(Pattern.quote(word.substring(at, varying.start()))).append("\\d+");
                at = varying.end();
            }
            words.add(w.append(Pattern.quote(word.substring(at))).toString());
        }
        return Pattern.compile(String.join(" +", words));
    }

    /**
     * The README's quick start shows no WARNING, so the demo prints none: no JUL {@code WARNING:} or
     * {@code SEVERE:} line (the runtime logs through System.Logger), no agent warning. The embedded
     * store's H2 auto-server is kept on loopback by the agent, before the demo's code touches H2.
     */
    @Test
    void theQuickStartPrintsNoWarning() {
        assertThat(output.lines().filter(l -> l.startsWith("WARNING:") || l.startsWith("SEVERE:")
                || l.contains("[idempotent-agent] WARN")).toList())
                .as("WARNING lines of the demo; whole output:%n%s", output).isEmpty();
    }

    @Test
    void refundsHappenedOncePerApprovalDespiteALostReplyATimeoutAndAChangedAmount() {
        assertThat(value("issue_refund.businessEffects")).isEqualTo(2);
        // The lost reply was re-sent under the same key and the provider answered from its store.
        assertThat(value("issue_refund.providerInvocations")).isEqualTo(3);
        // The meters (summed over every JVM's registry) count what the attempt log recorded.
        assertThat(value("issue_refund.conflicts")).isEqualTo(2).isEqualTo(value("issue_refund.log.conflicts"));
        assertThat(value("issue_refund.replays")).isEqualTo(5).isEqualTo(value("issue_refund.log.replays"));
        assertThat(value("issue_refund.attempts")).isEqualTo(value("issue_refund.log.attempts"));
        assertThat(value("issue_refund.executions")).isEqualTo(value("issue_refund.log.executions"));
        assertThat(value("issue_refund.inProgress")).isPositive();
        assertThat(value("issue_refund.completedOperations")).isEqualTo(2);
        assertThat(value("issue_refund.stillAwaitingReconciliation")).isZero();
        assertThat(output).contains("OperationInProgressException (retryable: wait");
    }

    @Test
    void theLargeRefundWaitedForAPersonThenRanOnceAfterTheGrantByTheCommandLine() {
        String ticket = output.substring(output.indexOf("-- ticket_1042"), output.indexOf("-- signup_7"));
        assertThat(ticket).containsSubsequence(
                "workflow: 120000 cents is above the limit of 50000: issue_large_refund",
                "issue_large_refund(invoice_977, 120000) -> ApprovalPendingException (retryable true)",
                "model: no refund yet; calling again with the same arguments",
                "issue_large_refund(invoice_977, 120000) -> ApprovalPendingException (retryable true)",
                "operator: idem approvals --tool issue_large_refund", "    | ",
                "operator: idem approve issue_large_refund", "    | ",
                "model: calling again after the approval", "issue_large_refund(invoice_977, 120000) -> Refund[",
                "model: and once more", "issue_large_refund(invoice_977, 120000) -> Refund[");
        assertThat(value("issue_large_refund.businessEffects")).isEqualTo(1);
        assertThat(value("issue_large_refund.providerInvocations")).isEqualTo(1);
        assertThat(value("issue_large_refund.completedOperations")).isEqualTo(1);
        assertThat(value("issue_large_refund.executions")).isEqualTo(1)
                .isEqualTo(value("issue_large_refund.log.executions"));
        // Once after the grant in run 1, twice in the operator's replay of the run.
        assertThat(value("issue_large_refund.replays")).isEqualTo(3).isEqualTo(value("issue_large_refund.log.replays"));
        assertThat(summary.getProperty("approval.outcomes").split(",")).containsExactly("APPROVAL_REQUESTED",
                "AWAITING_APPROVAL", "APPROVAL_GRANTED", "COMPLETED", "REPLAYED", "REPLAYED", "REPLAYED");
    }

    @Test
    void theUncertainEmailWasReconciledNotResent() {
        assertThat(value("send_welcome_email.businessEffects")).isEqualTo(1);
        assertThat(value("send_welcome_email.providerInvocations")).isEqualTo(1);
        assertThat(value("send_welcome_email.enteredReconciliation")).isEqualTo(1)
                .isEqualTo(value("send_welcome_email.log.enteredReconciliation"));
        assertThat(value("send_welcome_email.reconciledApplied")).isEqualTo(1)
                .isEqualTo(value("send_welcome_email.log.reconciledApplied"));
        // The worker halted inside its call before publishing its meters: its attempt and its one
        // execution are in the attempt log only, and the demo says so.
        assertThat(value("send_welcome_email.executions")).isZero();
        assertThat(value("send_welcome_email.log.executions")).isEqualTo(1);
        assertThat(value("send_welcome_email.attempts")).isEqualTo(value("send_welcome_email.log.attempts") - 1);
        assertThat(value("all.meterDifferences")).isEqualTo(2);
        assertThat(output).contains("Where the meters and the attempt log differ:")
                .containsPattern("send_welcome_email +attempts +meters \\d+, attempt log \\d+")
                .containsPattern("send_welcome_email +executions +meters 0, attempt log 1");
        assertThat(value("send_welcome_email.stillAwaitingReconciliation")).isZero();
        assertThat(summary.getProperty("incident.outcomes").split(",")).startsWith("RUNNING")
                .contains("LEASE_EXPIRED", "RECONCILED_APPLIED", "REPLAYED").doesNotContain("COMPLETED");
    }

    @Test
    void theDeploymentConverged() {
        assertThat(value("set_target_version.businessEffects")).isEqualTo(1);
        assertThat(value("set_target_version.providerInvocations")).isEqualTo(2);
        assertThat(value("set_target_version.reconciledApplied")).isEqualTo(1)
                .isEqualTo(value("set_target_version.log.reconciledApplied"));
        assertThat(value("set_target_version.attempts")).isEqualTo(value("set_target_version.log.attempts"));
        assertThat(value("set_target_version.executions")).isEqualTo(value("set_target_version.log.executions"));
        assertThat(value("set_target_version.completedOperations")).isEqualTo(2);
    }

    @Test
    void thePrintedTableIsTheSumOfEveryJvmsMicrometerCounters() {
        assertThat(output).contains("From the meters idempotent.tool.attempts and idempotent.tool.outcomes");
        for (String tool : List.of("issue_refund", "issue_large_refund", "send_welcome_email", "set_target_version")) {
            long[] row = printedRow(tool);
            assertThat(row).as(tool).startsWith(meter(tool, "attempts"), meter(tool, "in_progress"),
                    meter(tool, "executed"), meter(tool, "replayed"), meter(tool, "payload_conflict"),
                    meter(tool, "awaiting_reconciliation"));
            assertThat(row[7]).as(tool + " reconciled")
                    .isEqualTo(meter(tool, "reconciled_applied") + meter(tool, "reconciled_not_applied"));
            assertThat(row[6]).as(tool + " left awaiting").isEqualTo(value(tool + ".stillAwaitingReconciliation"));
            assertThat(row[8]).as(tool + " provider hits").isEqualTo(value(tool + ".providerInvocations"));
            assertThat(row[9]).as(tool + " business effects").isEqualTo(value(tool + ".businessEffects"));
        }
        // Where no worker halted mid-call, the body ran exactly as often as the provider was called.
        assertThat(printedRow("issue_refund")[2]).isEqualTo(3).isEqualTo(value("issue_refund.providerInvocations"));
        assertThat(printedRow("set_target_version")[2]).isEqualTo(2)
                .isEqualTo(value("set_target_version.providerInvocations"));
        // The one call into the mail provider ran in the worker that died before publishing.
        assertThat(printedRow("send_welcome_email")[2]).isZero();
        assertThat(value("send_welcome_email.providerInvocations")).isEqualTo(1);
    }

    @Test
    void theOperatorsReplayAddedNoEffect() {
        assertThat(output).contains("== Run 2: an operator replays the whole run");
        String replay = output.substring(output.indexOf("== Run 2"));
        assertThat(replay).doesNotContain("runtime: ").contains("PayloadConflictException");
    }
}
