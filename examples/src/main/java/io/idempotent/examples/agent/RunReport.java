package io.idempotent.examples.agent;

import io.idempotent.examples.providers.ProviderDatabase;
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
 * The table at the end of the run: per tool, what the store recorded across every JVM (from the
 * attempt log) beside what the providers actually did (counted at the provider).
 */
final class RunReport {

    /** Tool name and the provider that performs its effect. */
    static final Map<String, String> PROVIDERS = new LinkedHashMap<>();

    static {
        PROVIDERS.put("issue_refund", "psp");
        PROVIDERS.put("send_welcome_email", "mail");
        PROVIDERS.put("set_target_version", "deploy");
    }

    private final String storeUrl;
    private final String storePassword;
    private final ProviderDatabase providers;
    private final Properties summary = new Properties();

    RunReport(String storeUrl, String storePassword, ProviderDatabase providers) {
        this.storeUrl = storeUrl;
        this.storePassword = storePassword;
        this.providers = providers;
    }

    void printTable(ToolRunner.Narrator out) {
        String format = "%-20s %9s %8s %10s %16s %11s %13s %18s%n";
        out.say(String.format(format, "tool", "attempts", "replays", "conflicts", "awaiting recon.", "reconciled",
                "provider hits", "business effects").stripTrailing());
        for (Map.Entry<String, String> e : PROVIDERS.entrySet()) {
            String tool = e.getKey();
            long attempts = count("SELECT count(DISTINCT attempt_id) FROM tool_operation_attempts WHERE tool = ?"
                    + " AND attempt_id NOT LIKE 'operator-%'", tool);
            long replays = outcome(tool, "REPLAYED");
            long conflicts = outcome(tool, "PAYLOAD_CONFLICT");
            long awaiting = count("SELECT count(DISTINCT operation_key) FROM tool_operation_attempts WHERE tool = ?"
                    + " AND outcome IN ('NEEDS_RECONCILIATION', 'LEASE_EXPIRED')", tool);
            long reconciled = outcome(tool, "RECONCILED_APPLIED") + outcome(tool, "RECONCILED_NOT_APPLIED");
            long stillAwaiting = count("SELECT count(*) FROM tool_operations WHERE tool = ?"
                    + " AND status = 'needs_reconciliation'", tool);
            int hits = providers.count(e.getValue(), "invocation");
            int effects = providers.count(e.getValue(), "effect");
            out.say(String.format(format, tool, attempts, replays, conflicts, awaiting + " (" + stillAwaiting
                    + " left)", reconciled, hits, effects).stripTrailing());
            put(tool, "attempts", attempts);
            put(tool, "replays", replays);
            put(tool, "conflicts", conflicts);
            put(tool, "enteredReconciliation", awaiting);
            put(tool, "stillAwaitingReconciliation", stillAwaiting);
            put(tool, "reconciledApplied", outcome(tool, "RECONCILED_APPLIED"));
            put(tool, "providerInvocations", hits);
            put(tool, "businessEffects", effects);
            put(tool, "completedOperations", count("SELECT count(*) FROM tool_operations WHERE tool = ?"
                    + " AND status = 'completed'", tool));
        }
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
        summary.setProperty("incident.key", op.key());
        summary.setProperty("incident.outcomes", String.join(",", log.stream().map(a -> a.outcome().name()).toList()));
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
