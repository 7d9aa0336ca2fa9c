package io.idempotent.runtime.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a crash can lose from the attempt log: only answers that changed nothing (replays here),
 * written in batches after their calls returned. A forked JVM completes an operation, fails
 * another, has it settled, replays the first many times and halts at once; its claim,
 * completion, failure and settlement rows are all in the log, and at most its replays are not.
 */
class AnswerLogCrashTest {

    @OnBothDatabases
    void aCrashLosesAtMostAnswersNeverAClaimCompletionFailureOrSettlement(TestDatabase db, @TempDir Path dir)
            throws Exception {
        // The forked JVM needs a database that outlives it: H2 in a file, or the shared PostgreSQL.
        String url = db.kind() == Database.H2 ? "jdbc:h2:file:" + dir.resolve("ops").toAbsolutePath()
                + ";WRITE_DELAY=0" : db.url();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CrashingCaller.class.getName(), url, db.user(), db.password())
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(dir.resolve("child.log"), StandardCharsets.UTF_8);
        assertThat(output).contains("HALTING");

        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            assertThat(status(c, "refund", "refund:1")).isEqualTo("completed");
            assertThat(status(c, "send_mail", "mail:1")).isEqualTo("failed_safe");
            List<String> refund = outcomes(c, "refund", "refund:1");
            List<String> mail = outcomes(c, "send_mail", "mail:1");
            // The claim's row, ended by the completion, and the failure and the settlement.
            assertThat(refund).first().isEqualTo("COMPLETED");
            assertThat(mail).containsExactly("NEEDS_RECONCILIATION", "SETTLED_NOT_APPLIED");
            // Replays are answers: some may not have been written when the JVM died, never more.
            assertThat(refund.subList(1, refund.size())).containsOnly("REPLAYED");
            assertThat(refund.size() - 1).isBetween(0, CrashingCaller.REPLAYS);
            System.out.println(db.kind() + ": " + (refund.size() - 1) + " of " + CrashingCaller.REPLAYS
                    + " replay answers were written before the halt");
        }
    }

    private static String status(Connection c, String tool, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT status FROM tool_operations WHERE tool = ? AND operation_key = ?")) {
            ps.setString(1, tool);
            ps.setString(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static List<String> outcomes(Connection c, String tool, String key) throws SQLException {
        List<String> list = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT outcome FROM tool_operation_attempts"
                + " WHERE tool = ? AND operation_key = ? ORDER BY started_at, id")) {
            ps.setString(1, tool);
            ps.setString(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    list.add(rs.getString(1));
                }
            }
        }
        return list;
    }
}
