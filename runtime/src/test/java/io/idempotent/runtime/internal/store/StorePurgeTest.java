package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.testing.CountingDataSource;
import io.idempotent.runtime.testing.StatementHookDataSource;
import io.idempotent.runtime.testing.TestDatabase;
import io.idempotent.runtime.testing.OnBothDatabases;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import javax.sql.DataSource;

/**
 * Purging deletes operations with their attempt logs in one consistent cut, and the retention of
 * a record starts again when it is settled or fails, so an incident's log outlives its ending.
 */
class StorePurgeTest {

    private static final String TOOL = "refund";
    private static final String ATTEMPT = "attempt-1";
    private static final AttemptEnd END = new AttemptEnd(null, null);
    private static final Duration LONG = Duration.ofHours(1);
    private static final Duration DAY = Duration.ofDays(1);

    private static JdbcOperationStore store(TestDatabase db, DataSource ds) {
        return new JdbcOperationStore("default", ds, Dialect.detect(db.url()), SchemaMode.CREATE, null);
    }

    /** Claims {@code key} and logs an answer for it: the log table holds a row of the operation. */
    private static void claimAndLog(JdbcOperationStore store, String key, Duration retention) {
        claimAndLog(store, key, LONG, retention);
    }

    /**
     * As {@link #claimAndLog(JdbcOperationStore, String, Duration)} with a lease of {@code lease}:
     * a record is kept at least the lease it was claimed with plus its retention.
     */
    private static void claimAndLog(JdbcOperationStore store, String key, Duration lease, Duration retention) {
        assertThat(store.claim(new ClaimRequest(ATTEMPT, key, TOOL, "h", "{}", lease, retention, true)))
                .isInstanceOf(ClaimResult.Inserted.class);
        store.logAttempt(new AttemptRow("answered", key, TOOL, AttemptOutcome.IN_PROGRESS, 0, "h", null, null,
                null));
    }

    private static long orphanAttempts(TestDatabase db) {
        return db.queryLong("SELECT count(*) FROM tool_operation_attempt_log a WHERE NOT EXISTS (SELECT 1 FROM"
                + " tool_operations o WHERE o.tool = a.tool AND o.operation_key = a.operation_key)");
    }

    private static boolean expired(TestDatabase db, String key) {
        return db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ?"
                + " AND expires_at <= CURRENT_TIMESTAMP", key) == 1;
    }

    @OnBothDatabases
    void aRecordThatExpiresWhileThePurgeRunsIsDeletedWithItsLogOrNotAtAll(TestDatabase db) {
        StatementHookDataSource hooked = new StatementHookDataSource(db);
        JdbcOperationStore store = store(db, hooked);
        claimAndLog(store, "old", Duration.ofMillis(1), Duration.ofMillis(1));
        store.complete(TOOL, "old", 1, ATTEMPT, "\"done\"", END);
        claimAndLog(store, "young", Duration.ofSeconds(2), Duration.ofSeconds(2));
        store.complete(TOOL, "young", 1, ATTEMPT, "\"done\"", END);
        TestDatabase.await(() -> expired(db, "old"), Duration.ofSeconds(10), "the old record to expire");
        assertThat(expired(db, "young")).as("set-up: the young record must not have expired yet").isFalse();

        // The young record's retention ends while the purge is under way.
        hooked.afterStatement("DELETE FROM tool_operation_attempt_log", () -> TestDatabase.await(
                () -> expired(db, "young"), Duration.ofSeconds(10), "the young record to expire"));
        int purged = store.purgeExpired();

        assertThat(orphanAttempts(db)).isZero();
        long youngRows = db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = 'young'");
        long youngLog = db.queryLong("SELECT count(*) FROM tool_operation_attempt_log WHERE operation_key = 'young'");
        assertThat(youngLog).isEqualTo(youngRows);
        assertThat(purged).isEqualTo(2 - (int) youngRows);
        assertThat(db.queryLong("SELECT count(*) FROM tool_operation_attempt_log WHERE operation_key = 'old'")).isZero();
    }

    /** Makes the record look as if it waited longer than its retention before it ended. */
    private static void outliveRetention(TestDatabase db, String key) {
        db.update("UPDATE tool_operations SET expires_at = created_at WHERE operation_key = ?", key);
        assertThat(expired(db, key)).isTrue();
    }

    private static void assertKeptWithItsLog(TestDatabase db, JdbcOperationStore store, String key) {
        List<AttemptRecord> log = wholeLog(store, key);
        assertThat(log).isNotEmpty();
        assertThat(store.purgeExpired()).isZero();
        assertThat(store.find(TOOL, key)).isPresent();
        assertThat(wholeLog(store, key)).isEqualTo(log);
        assertThat(expired(db, key)).isFalse();
    }

    @OnBothDatabases
    void anOperatorsSettlementRestartsTheRetention(TestDatabase db) {
        JdbcOperationStore store = store(db, new CountingDataSource(db));
        claimAndLog(store, "k", DAY);
        assertThat(store.fail(TOOL, "k", 1, ATTEMPT, false, "{}", END).applied()).isTrue();
        // It waited for a person for longer than its retention; uncertain records are never purged.
        outliveRetention(db, "k");
        assertThat(store.purgeExpired()).isZero();

        assertThat(store.settleNotApplied(TOOL, "k", 1, "alice").applied()).isTrue();
        assertThat(store.find(TOOL, "k").orElseThrow().status()).isEqualTo(OperationStatus.FAILED_SAFE);
        assertKeptWithItsLog(db, store, "k");
    }

    @OnBothDatabases
    void aSettlementAsAppliedRestartsTheRetention(TestDatabase db) {
        JdbcOperationStore store = store(db, new CountingDataSource(db));
        claimAndLog(store, "k", DAY);
        assertThat(store.fail(TOOL, "k", 1, ATTEMPT, false, "{}", END).applied()).isTrue();
        outliveRetention(db, "k");
        assertThat(store.settleApplied(TOOL, "k", 1, "\"checked\"").applied()).isTrue();
        assertKeptWithItsLog(db, store, "k");
    }

    @OnBothDatabases
    void aFailureRestartsTheRetention(TestDatabase db) {
        JdbcOperationStore store = store(db, new CountingDataSource(db));
        claimAndLog(store, "k", DAY);
        // The attempt ran for longer than the retention, then failed safely.
        outliveRetention(db, "k");
        assertThat(store.fail(TOOL, "k", 1, ATTEMPT, true, "{}", END).applied()).isTrue();
        assertKeptWithItsLog(db, store, "k");
    }

    @OnBothDatabases
    void aLeaseExpiryRestartsTheRetention(TestDatabase db) {
        JdbcOperationStore store = store(db, new CountingDataSource(db));
        assertThat(store.claim(new ClaimRequest(ATTEMPT, "k", TOOL, "h", "{}", Duration.ofMillis(1), DAY, false)))
                .isInstanceOf(ClaimResult.Inserted.class);
        db.awaitLeaseExpired("k");
        outliveRetention(db, "k");
        assertThat(store.expireLease(TOOL, "k", 1, true, "{}").applied()).isTrue();
        assertKeptWithItsLog(db, store, "k");
    }

    /** The whole attempt log of a key these tests keep short: one page of at most the largest size. */
    private static List<AttemptRecord> wholeLog(JdbcOperationStore store, String key) {
        AttemptPage page = store.attempts(TOOL, key, EnumSet.allOf(AttemptOutcome.class), 0, AttemptPage.MAX_LIMIT);
        assertThat(page.hasMore()).isFalse();
        return page.attempts();
    }
}
