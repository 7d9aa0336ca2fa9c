package io.idempotent.runtime.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.OutboxRelay;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay's JVM killed after the destination applied a message and before the relay recorded the
 * delivery: the next relay (this JVM) sends it again with the same key once the dead relay's claim
 * has run out; the destination counts two hits and one effect.
 */
class RelayCrashTest {

    @OnBothDatabases
    void aRelayKilledAfterTheSendIsFollowedByARedeliveryWithTheSameKey(TestDatabase db, @TempDir Path dir)
            throws Exception {
        // The forked JVM needs a database that outlives it: H2 in a file, or the shared PostgreSQL.
        String url = db.kind() == Database.H2 ? "jdbc:h2:file:" + dir.resolve("ops").toAbsolutePath()
                + ";WRITE_DELAY=0" : db.url();
        TableDestination destination = new TableDestination(url, db.user(), db.password(), () -> { });
        destination.create();
        db.onCleanUp(() -> {
            try {
                destination.drop();
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        ToolPolicy notify = Policies.downstreamKey("notify", Retry.SAFE).outbox("mail").build();
        try (IdempotentRuntime writer = IdempotentRuntime.builder().store("default", url, db.user(), db.password())
                .build()) {
            writer.call(notify, "notify:crash", Map.of(), String.class, () -> {
                OperationContext.current().send("mail", "{\"to\":\"customer\"}");
                return "sent";
            });
        }

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CrashingRelay.class.getName(), url, db.user(), db.password())
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(dir.resolve("child.log"), StandardCharsets.UTF_8)).contains("HALTING");
        assertThat(destination.hits()).containsExactly("notify:crash");
        assertThat(status(url, db)).isEqualTo("sending");

        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", url, db.user(), db.password())
                .build()) {
            TestDatabase.await(() -> claimRanOut(url, db), Duration.ofSeconds(30), "the dead relay's claim to run out");
            int delivered = runtime.outbox().relay("default", destination, OutboxRelay.Settings.defaults()
                    .withRelayId("relay-next")).deliverDue();
            assertThat(delivered).isEqualTo(1);
        }
        assertThat(destination.hits()).containsExactly("notify:crash", "notify:crash");
        assertThat(destination.effects()).containsExactly("notify:crash");
        assertThat(status(url, db)).isEqualTo("delivered");
    }

    private static String status(String url, TestDatabase db) throws Exception {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password()); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT status FROM tool_operation_outbox")) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }

    private static boolean claimRanOut(String url, TestDatabase db) {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password()); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM tool_operation_outbox WHERE status = 'sending'"
                        + " AND claimed_until < CURRENT_TIMESTAMP")) {
            rs.next();
            return rs.getInt(1) == 1;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
