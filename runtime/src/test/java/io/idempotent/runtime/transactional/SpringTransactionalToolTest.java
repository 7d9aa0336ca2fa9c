package io.idempotent.runtime.transactional;

import static io.idempotent.runtime.transactional.TransactionalToolTest.LEDGER;
import static io.idempotent.runtime.transactional.TransactionalToolTest.PAYLOAD;
import static io.idempotent.runtime.transactional.TransactionalToolTest.ledgerTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A transactional tool under Spring: a caller's {@code @Transactional} (here its programmatic
 * twin, {@code TransactionTemplate} over a {@code DataSourceTransactionManager}) on the store's
 * data source takes the tool's claim, writes and completion into its own transaction, so they
 * commit or roll back with it; without one, the body's {@code JdbcTemplate} and
 * {@code @Transactional} code write in the tool's own transaction.
 */
class SpringTransactionalToolTest {

    private static HikariDataSource pool(TestDatabase db) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.url());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(4);
        HikariDataSource pool = new HikariDataSource(config);
        db.onCleanUp(pool::close);
        return pool;
    }

    private static String entry(JdbcTemplate jdbc, String table) {
        jdbc.update("INSERT INTO " + table + " (entry_key, amount_cents) VALUES (?, ?)",
                OperationContext.current().key(), 1250);
        return "entry " + OperationContext.current().key();
    }

    @OnBothDatabases
    void theToolsWritesAndRecordRollBackWithTheCallersTransaction(TestDatabase db) {
        HikariDataSource pool = pool(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", pool).build());
        String table = ledgerTable(db);
        JdbcTemplate jdbc = new JdbcTemplate(pool);
        TransactionTemplate caller = new TransactionTemplate(new DataSourceTransactionManager(pool));
        String key = "ledger:spring-1";

        caller.executeWithoutResult(status -> {
            runtime.call(LEDGER, key, PAYLOAD, String.class, () -> entry(jdbc, table));
            status.setRollbackOnly(); // the caller's work fails after the tool returned
        });

        assertThat(db.queryLong("SELECT count(*) FROM " + table)).as("the tool's write").isZero();
        assertThat(db.status(key)).as("the tool's record").isNull();

        // Nothing committed, so nothing may be remembered either: the repeat runs the body (no
        // replay from this runtime's memory of a completion that rolled back).
        AtomicInteger runs = new AtomicInteger();
        runtime.call(LEDGER, key, PAYLOAD, String.class, () -> {
            runs.incrementAndGet();
            return entry(jdbc, table);
        });
        assertThat(runs).as("body runs of the repeat after the rollback").hasValue(1);
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).as("the repeat's write").isEqualTo(1);
        assertThat(db.status(key)).as("the repeat's record").isEqualTo("completed");
    }

    @OnBothDatabases
    void theToolsWritesAndRecordCommitWithTheCallersTransactionAndARepeatReplays(TestDatabase db) {
        HikariDataSource pool = pool(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", pool).build());
        String table = ledgerTable(db);
        JdbcTemplate jdbc = new JdbcTemplate(pool);
        TransactionTemplate caller = new TransactionTemplate(new DataSourceTransactionManager(pool));
        String key = "ledger:spring-2";
        AtomicInteger runs = new AtomicInteger();

        String first = caller.execute(status -> {
            jdbc.update("INSERT INTO " + table + " (entry_key, amount_cents) VALUES ('caller', 0)");
            return runtime.call(LEDGER, key, PAYLOAD, String.class, () -> {
                runs.incrementAndGet();
                return entry(jdbc, table);
            });
        });
        String again = caller.execute(status -> runtime.call(LEDGER, key, PAYLOAD, String.class, () -> {
            runs.incrementAndGet();
            return entry(jdbc, table);
        }));

        assertThat(again).isEqualTo(first).isEqualTo("entry " + key);
        assertThat(runs).hasValue(1);
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).as("the caller's row and the tool's").isEqualTo(2);
        assertThat(db.status(key)).isEqualTo("completed");
    }

    @OnBothDatabases
    void withoutACallersTransactionTheBodysSpringCodeWritesInTheToolsTransaction(TestDatabase db) {
        HikariDataSource pool = pool(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", pool).build());
        String table = ledgerTable(db);
        JdbcTemplate jdbc = new JdbcTemplate(pool);
        // @Transactional code in the body (propagation REQUIRED) takes part in the tool's transaction.
        TransactionTemplate inTheBody = new TransactionTemplate(new DataSourceTransactionManager(pool));
        String key = "ledger:spring-3";

        assertThatThrownBy(() -> runtime.call(LEDGER, key, PAYLOAD, String.class, () -> {
            inTheBody.executeWithoutResult(status -> entry(jdbc, table));
            jdbc.update("INSERT INTO " + table + " (entry_key, amount_cents) VALUES ('second', 1)");
            throw new IllegalStateException("the body failed after its writes");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).as("rolled back with the failure").isZero();
        assertThat(db.status(key)).isEqualTo("failed_safe");

        runtime.call(LEDGER, key, PAYLOAD, String.class, () -> inTheBody.execute(status -> entry(jdbc, table)));
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isEqualTo(1);
        assertThat(db.status(key)).isEqualTo("completed");
    }

    @OnBothDatabases
    void aCallersTransactionOnAnotherDataSourceIsRefusedBeforeTheClaim(TestDatabase db) {
        HikariDataSource storePool = pool(db);
        HikariDataSource otherPool = pool(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", storePool).build());
        TransactionTemplate caller = new TransactionTemplate(new DataSourceTransactionManager(otherPool));
        AtomicInteger runs = new AtomicInteger();
        String key = "ledger:spring-4";

        assertThatThrownBy(() -> caller.executeWithoutResult(status -> runtime.call(LEDGER, key, PAYLOAD,
                String.class, runs::incrementAndGet)))
                .isInstanceOf(StoreConfigurationException.class)
                .hasMessageContaining("its caller runs in a Spring transaction, but not on the data source of the"
                        + " tool's store");
        assertThat(runs).hasValue(0);
        assertThat(db.status(key)).isNull();
    }
}
