package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Policies;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * The store created on an application's H2 data source whose connections come and go (a pool
 * retiring the one that created the tables): every later call still claims, completes and replays
 * while the database stays open. H2 2.4.240 evaluates a {@code CHECK (status IN (...))} with the
 * session that created it, so once that session closed every claim failed as "Check constraint
 * invalid" (23514); the H2 scripts' status check is written as {@code = ANY(ARRAY[...])}, which
 * holds no session. Run on H2 2.4 by the runtime's library-range run (runtime/pom.xml).
 */
class H2SchemaSessionClosedTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();

    @Test
    void callsClaimAndReplayAfterTheSessionsThatCreatedTheTablesClosed() throws Exception {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:closed" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1");
        dataSource.setUser("sa");
        AtomicInteger runs = new AtomicInteger();
        try (Connection keeper = dataSource.getConnection(); Statement s = keeper.createStatement()) {
            // One runtime creates the tables and ends: the sessions it used are closed, the database stays.
            try (IdempotentRuntime creator = IdempotentRuntime.builder().store("default", dataSource).build()) {
                assertThat(creator.call(REFUND, "first", Map.of("a", 1), String.class,
                        () -> "refund " + runs.incrementAndGet())).isEqualTo("refund 1");
            }
            try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", dataSource).build()) {
                assertThat(runtime.call(REFUND, "second", Map.of("a", 1), String.class,
                        () -> "refund " + runs.incrementAndGet())).isEqualTo("refund 2");
                assertThat(runtime.call(REFUND, "second", Map.of("a", 1), String.class,
                        () -> "refund " + runs.incrementAndGet())).isEqualTo("refund 2");
                assertThat(runtime.call(REFUND, "first", Map.of("a", 1), String.class,
                        () -> "refund " + runs.incrementAndGet())).isEqualTo("refund 1");
            }
            assertThat(runs).hasValue(2);
            // The check itself still refuses what is no status.
            assertThatThrownBy(() -> s.executeUpdate("UPDATE tool_operations SET status = 'lost'"))
                    .hasMessageContaining("TOOL_OPERATIONS_STATUS_CK");
            s.execute("SHUTDOWN");
        }
    }
}
