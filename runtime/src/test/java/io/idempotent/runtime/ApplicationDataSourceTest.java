package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.NoAutoCommitDataSource;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The store works on whatever data source the application gives it: connections with auto-commit
 * off, and a data source that hands out the connection of a surrounding business transaction.
 * The operation record commits on its own either way, so a repeat replays instead of running the
 * body again, and the application's transaction is neither joined nor committed by the store.
 */
class ApplicationDataSourceTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final String KEY = "refund:invoice_842:approved_17";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842", "amountCents", 1250);

    @OnBothDatabases
    void aHikariPoolWithAutoCommitOffStillCommitsEveryRecord(TestDatabase db) {
        try (HikariDataSource pool = pool(db, false)) {
            callsTwiceAndReplays(db, pool);
            try (Connection c = pool.getConnection()) {
                assertThat(c.getAutoCommit()).as("the pool's own setting").isFalse();
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        }
    }

    @OnBothDatabases
    void connectionsWithAutoCommitOffAreHandedBackAsTheyCame(TestDatabase db) {
        NoAutoCommitDataSource dataSource = new NoAutoCommitDataSource(db);

        callsTwiceAndReplays(db, dataSource);

        assertThat(dataSource.autoCommitAtClose()).isNotEmpty().containsOnly(false);
    }

    @OnBothDatabases
    void theRecordCommitsThoughTheSurroundingBusinessTransactionRollsBack(TestDatabase db) {
        String table = "business_rows_" + Long.toHexString(System.nanoTime());
        db.update("CREATE TABLE " + table + " (id VARCHAR(40))");
        try (HikariDataSource pool = pool(db, true)) {
            DataSource proxy = new TransactionAwareDataSourceProxy(pool);
            IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", proxy).build());
            TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(pool));
            FakeProvider provider = new FakeProvider();

            String first = transaction.execute(status -> {
                insert(DataSourceUtils.getConnection(pool), table, "business change");
                String result = runtime.call(REFUND, KEY, PAYLOAD, String.class,
                        () -> provider.apply(KEY, "refund 1250"));
                // The business transaction fails after the tool ran: its own rows roll back.
                status.setRollbackOnly();
                return result;
            });

            assertThat(db.queryLong("SELECT count(*) FROM " + table)).as("business rows").isZero();
            assertThat(db.status(KEY)).isEqualTo("completed");
            String replay = transaction.execute(status -> runtime.call(REFUND, KEY, PAYLOAD, String.class,
                    () -> provider.apply(KEY, "again")));
            assertThat(replay).isEqualTo(first);
            assertThat(provider.invocations()).isEqualTo(1);
            assertThat(db.attemptOutcomes(KEY)).containsExactly("COMPLETED", "REPLAYED");
        } finally {
            db.update("DROP TABLE " + table);
        }
    }

    private static void callsTwiceAndReplays(TestDatabase db, DataSource dataSource) {
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", dataSource).build());
        FakeProvider provider = new FakeProvider();

        String first = runtime.call(REFUND, KEY, PAYLOAD, String.class, () -> provider.apply("refund 1250"));
        String second = runtime.call(REFUND, KEY, PAYLOAD, String.class, () -> provider.apply("again"));

        assertThat(second).isEqualTo(first);
        assertThat(provider.effects()).as("body runs").isEqualTo(1);
        assertThat(db.status(KEY)).isEqualTo("completed");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("COMPLETED", "REPLAYED");
    }

    private static HikariDataSource pool(TestDatabase db, boolean autoCommit) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.url());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setAutoCommit(autoCommit);
        config.setMaximumPoolSize(4);
        return new HikariDataSource(config);
    }

    private static void insert(Connection c, String table, String id) {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id) VALUES (?)")) {
            ps.setString(1, id);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
