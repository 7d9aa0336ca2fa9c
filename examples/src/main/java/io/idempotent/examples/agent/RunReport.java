package io.idempotent.examples.agent;

import io.idempotent.examples.providers.ProviderDatabase;
import io.idempotent.micrometer.MicrometerMetrics;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.OperationRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The table at the end of the run: per tool, what the Micrometer meters of every JVM counted
 * (what production dashboards show) beside what the providers actually did (counted at the
 * provider), and where the store's attempt log says otherwise.
 */
final class RunReport {

    /** Tool name and the provider that performs its effect. */
    static final Map<String, String> PROVIDERS = new LinkedHashMap<>();

    static {
        PROVIDERS.put("issue_refund", "psp");
        PROVIDERS.put("issue_large_refund", "psp-large");
        PROVIDERS.put("send_welcome_email", "mail");
        PROVIDERS.put("set_target_version", "deploy");
    }

    private final String storeUrl;
    private final String storePassword;
    private final ProviderDatabase providers;
    private final Map<String, Long> meters;
    private final Properties summary = new Properties();

    /** {@code meters}: every JVM's published Micrometer counters, summed ({@link PublishedMeters#sum}). */
    RunReport(String storeUrl, String storePassword, ProviderDatabase providers, Map<String, Long> meters) {
        this.storeUrl = storeUrl;
        this.storePassword = storePassword;
        this.providers = providers;
        this.meters = meters;
    }

    /**
     * The per-tool table: calls and outcomes from the Micrometer meters (what a dashboard shows),
     * the queue left from the store, effects from the providers; then each figure where the
     * attempt log says otherwise.
     */
    void printTable(ToolRunner.Narrator out) {
        String format = "%-20s %9s %9s %11s %8s %10s %16s %11s %13s %18s%n";
        out.say("From the meters " + MicrometerMetrics.ATTEMPTS + " and " + MicrometerMetrics.OUTCOMES
                + " of every JVM; \"left\" read from the store; provider hits and effects counted at the providers:");
        out.say(String.format(format, "tool", "attempts", "in prog.", "executions", "replays", "conflicts",
                "awaiting recon.", "reconciled", "provider hits", "business effects").stripTrailing());
        List<String> differences = new java.util.ArrayList<>();
        for (Map.Entry<String, String> e : PROVIDERS.entrySet()) {
            String tool = e.getKey();
            long attempts = meter(tool, "attempts");
            long inProgress = meter(tool, "in_progress");
            long executions = meter(tool, "executed");
            long replays = meter(tool, "replayed");
            long conflicts = meter(tool, "payload_conflict");
            long awaiting = meter(tool, "awaiting_reconciliation");
            long reconciled = meter(tool, "reconciled_applied") + meter(tool, "reconciled_not_applied");
            long stillAwaiting = count("SELECT count(*) FROM tool_operations WHERE tool = ?"
                    + " AND status = 'needs_reconciliation'", tool);
            int hits = providers.count(e.getValue(), "invocation");
            int effects = providers.count(e.getValue(), "effect");
            out.say(String.format(format, tool, attempts, inProgress, executions, replays, conflicts, awaiting + " ("
                    + stillAwaiting + " left)", reconciled, hits, effects).stripTrailing());
            put(tool, "attempts", attempts);
            put(tool, "inProgress", inProgress);
            put(tool, "executions", executions);
            put(tool, "replays", replays);
            put(tool, "conflicts", conflicts);
            put(tool, "enteredReconciliation", awaiting);
            put(tool, "reconciledApplied", meter(tool, "reconciled_applied"));
            put(tool, "stillAwaitingReconciliation", stillAwaiting);
            put(tool, "providerInvocations", hits);
            put(tool, "businessEffects", effects);
            put(tool, "completedOperations", count("SELECT count(*) FROM tool_operations WHERE tool = ?"
                    + " AND status = 'completed'", tool));

            Map<String, Long> log = new LinkedHashMap<>();
            log.put("attempts", count("SELECT count(DISTINCT attempt_id) FROM tool_operation_attempts WHERE tool = ?"
                    + " AND attempt_id NOT LIKE 'operator-%'", tool));
            log.put("executions", count("SELECT COALESCE(sum(attempts), 0) FROM tool_operations WHERE tool = ?", tool));
            log.put("replays", outcome(tool, "REPLAYED"));
            log.put("conflicts", outcome(tool, "PAYLOAD_CONFLICT"));
            log.put("enteredReconciliation", count("SELECT count(DISTINCT operation_key) FROM tool_operation_attempts"
                    + " WHERE tool = ? AND outcome IN ('NEEDS_RECONCILIATION', 'LEASE_EXPIRED')", tool));
            log.put("reconciledApplied", outcome(tool, "RECONCILED_APPLIED"));
            Map<String, Long> fromMeters = Map.of("attempts", attempts, "executions", executions, "replays", replays,
                    "conflicts", conflicts, "enteredReconciliation", awaiting, "reconciledApplied",
                    meter(tool, "reconciled_applied"));
            log.forEach((what, value) -> {
                put(tool, "log." + what, value);
                if (!value.equals(fromMeters.get(what))) {
                    differences.add(String.format("  %-20s %-22s meters %d, attempt log %d", tool, what,
                            fromMeters.get(what), value));
                }
            });
        }
        if (!differences.isEmpty()) {
            out.say("Where the meters and the attempt log differ:");
            differences.forEach(out::say);
            out.say("  (a JVM that halts mid-call never publishes that call's increments, as a dashboard never"
                    + " scrapes a crashed JVM's last ones; the attempt log was written before the body ran)");
        }
        put("all", "meterDifferences", differences.size());
    }

    private long meter(String tool, String series) {
        return meters.getOrDefault(tool + "." + series, 0L);
    }

    void printIncidentReview(OperationRecord op, ToolRunner.Narrator out) {
        out.say("Incident review of " + op.key() + " (tool " + op.tool() + ")");
        out.say("  decision: " + op.status().column() + ", " + op.attempts() + " execution(s) of the body,"
                + " downstream id " + op.downstreamId());
        out.say("  payload:  " + op.payload());
        out.say("  result:   " + op.resultJson());
        List<AttemptRecord> log = op.attemptLog();
        int line = 0;
        for (int i = 0; i < log.size(); i++) {
            AttemptRecord a = log.get(i);
            int same = 1;
            while (i + same < log.size() && log.get(i + same).outcome() == a.outcome()
                    && a.outcome() == io.idempotent.runtime.AttemptOutcome.IN_PROGRESS) {
                same++;
            }
            out.say(String.format("  %d. %-22s %s%s%s", ++line, a.outcome(), a.leaseToken() == 0 ? ""
                    : "lease token " + a.leaseToken() + ": ", same > 1 ? same + " calls answered: "
                    : "", (a.detail() == null ? "" : a.detail()) + (a.downstreamId() == null ? ""
                            : " [downstream " + a.downstreamId() + "]")));
            i += same - 1;
        }
        if (op.hasMoreAttempts()) {
            out.say("  ... and " + (op.attemptCount() - log.size()) + " more rows (Operations.attemptLog pages them)");
        }
        summary.setProperty("incident.key", op.key());
        summary.setProperty("incident.outcomes", String.join(",", log.stream().map(a -> a.outcome().name()).toList()));
    }

    /** Keeps {@code op}'s attempt outcomes, oldest first, in the summary as {@code name.outcomes}. */
    void recordOutcomes(String name, OperationRecord op) {
        summary.setProperty(name + ".key", op.key());
        summary.setProperty(name + ".outcomes", String.join(",", op.attemptLog().stream()
                .map(a -> a.outcome().name()).toList()));
    }

    void put(String tool, String what, long value) {
        summary.setProperty(tool + "." + what, Long.toString(value));
    }

    void writeSummary(Path file) {
        try (Writer w = Files.newBufferedWriter(file)) {
            summary.store(w, "idempotent agent demo: what the store recorded and what the providers did");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long outcome(String tool, String outcome) {
        return count("SELECT count(*) FROM tool_operation_attempts WHERE tool = ? AND outcome = '" + outcome + "'",
                tool);
    }

    private long count(String sql, String tool) {
        try (Connection c = DriverManager.getConnection(storeUrl, "sa", storePassword);
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, tool);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
