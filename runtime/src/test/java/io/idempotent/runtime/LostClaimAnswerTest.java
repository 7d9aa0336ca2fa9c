package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.StoreExtension;
import io.idempotent.runtime.testing.TcpProxy;
import io.idempotent.runtime.testing.TestDatabase;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A claim whose answer is lost on its way back (the statement committed on PostgreSQL, the
 * connection then cut before its reply reached the JVM, through a real TCP forwarder) and whose
 * body therefore never ran: the runtime releases it once the store answers, so the key is fresh
 * again (issue 47, item 4), instead of "in progress" for the whole lease and then, for a tool
 * whose effect may begin with its body, needs_reconciliation.
 */
class LostClaimAnswerTest {

    /** A lease far longer than the test waits: only the release can free the key in time. */
    private static final ToolPolicy NEVER = Policies.downstreamKey("lost_claim", Retry.NEVER)
            .lease(Duration.ofMinutes(5)).build();

    private IdempotentRuntime runtime;
    private TcpProxy proxy;

    @AfterEach
    void cleanUp() throws Exception {
        if (runtime != null) {
            runtime.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        try (Connection c = DriverManager.getConnection(StoreExtension.postgresUrl()); Statement st = c.createStatement()) {
            TestDatabase.dropLibraryTables(st);
        }
    }

    @Test
    void aClaimWhoseAnswerWasLostIsReleasedOnceTheStoreAnswersAndTheKeyRunsAfresh() throws Exception {
        String direct = StoreExtension.postgresUrl();
        URI server = URI.create(direct.substring("jdbc:".length()));
        proxy = new TcpProxy(server.getHost(), server.getPort());
        String proxied = direct.replace(server.getHost() + ":" + server.getPort(), "127.0.0.1:" + proxy.port());
        runtime = IdempotentRuntime.builder().store("default", proxied, null, null).build();
        AtomicInteger runs = new AtomicInteger();
        assertThat(runtime.call(NEVER, "lost:warm-up", Map.of("n", 0), String.class, () -> "warm")).isEqualTo("warm");

        proxy.loseReplyToFirstSending("WITH existing AS");
        assertThatThrownBy(() -> runtime.call(NEVER, "lost:1", Map.of("n", 1), String.class, () -> {
            runs.incrementAndGet();
            return "ran";
        })).isInstanceOf(StoreUnavailableException.class).hasMessageContaining("may have been recorded")
                .hasMessageContaining("the body did not run");
        assertThat(proxy.dropped()).as("connections cut after the claim committed").isEqualTo(1);
        assertThat(runs.get()).isZero();

        TestDatabase.await(() -> "failed_safe".equals(status("lost:1")), Duration.ofSeconds(30),
                "the lost claim released (status now " + status("lost:1") + ")");
        String result = runtime.call(NEVER, "lost:1", Map.of("n", 1), String.class, () -> {
            runs.incrementAndGet();
            return "ran";
        });
        assertThat(result).isEqualTo("ran");
        assertThat(runs.get()).as("bodies run: the key was fresh again, even for Retry.NEVER").isEqualTo(1);
        assertThat(status("lost:1")).isEqualTo("completed");
        assertThat(runtime.operations().find(NEVER.name(), "lost:1").orElseThrow().attemptLog())
                .extracting(AttemptRecord::outcome)
                .containsExactly(AttemptOutcome.FAILED_SAFE, AttemptOutcome.COMPLETED);
    }

    private static String status(String key) {
        try (Connection c = DriverManager.getConnection(StoreExtension.postgresUrl());
                PreparedStatement ps = c.prepareStatement("SELECT status FROM tool_operations WHERE operation_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            return "unreadable: " + e.getSQLState();
        }
    }
}
