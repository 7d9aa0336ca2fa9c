package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.testing.CountingDataSource;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

/**
 * The guard of every transition of the operation state machine, on the store itself: each
 * conditional statement refuses a wrong lease token, a wrong status and a lease on the wrong
 * side of its end (database clock), changing nothing; and each reports the row as it left it.
 */
class StoreTransitionsTest {

    private static final String TOOL = "refund";
    private static final String ATTEMPT = "attempt-1";
    private static final AttemptEnd END = new AttemptEnd(null, null);
    private static final String KEY = "refund:invoice_842";
    private static final Duration LONG = Duration.ofHours(1);
    private static final Duration EXPIRED = Duration.ofMillis(1);
    private static final Duration RETENTION = Duration.ofDays(1);

    private static JdbcOperationStore store(TestDatabase db) {
        return new JdbcOperationStore("default", new CountingDataSource(db), Dialect.detect(db.url()),
                SchemaMode.CREATE, null);
    }

    private static ClaimResult.Inserted claim(JdbcOperationStore store, String tool, Duration lease,
            boolean effectAtStart) {
        ClaimResult result = store.claim(new ClaimRequest(ATTEMPT, KEY, tool, "h", "{}", lease, RETENTION, effectAtStart));
        assertThat(result).isInstanceOf(ClaimResult.Inserted.class);
        return (ClaimResult.Inserted) result;
    }

    /** A claim whose lease has already expired by the database's clock. */
    private static ClaimResult.Inserted claimExpired(TestDatabase db, JdbcOperationStore store, boolean effect) {
        ClaimResult.Inserted inserted = claim(store, TOOL, EXPIRED, effect);
        db.awaitLeaseExpired(KEY);
        return inserted;
    }

    private static StoredOperation row(JdbcOperationStore store) {
        return store.find(TOOL, KEY).orElseThrow();
    }

    private static void assertLost(Transition t, StoredOperation before, JdbcOperationStore store) {
        assertThat(t).isInstanceOf(Transition.LostRace.class);
        assertThat(t.applied()).isFalse();
        StoredOperation after = row(store);
        assertThat(after.status()).isEqualTo(before.status());
        assertThat(after.leaseToken()).isEqualTo(before.leaseToken());
        assertThat(after.effectStarted()).isEqualTo(before.effectStarted());
        assertThat(after.resultJson()).isEqualTo(before.resultJson());
        assertThat(after.attempts()).isEqualTo(before.attempts());
    }

    private static Transition.Applied assertApplied(Transition t) {
        assertThat(t).isInstanceOf(Transition.Applied.class);
        return (Transition.Applied) t;
    }

    @OnBothDatabases
    void theClaimReportsTheFirstLeaseAndAnExistingRowIsReadNotClaimed(TestDatabase db) {
        JdbcOperationStore store = store(db);
        ClaimResult.Inserted first = claim(store, TOOL, LONG, true);
        assertThat(first.leaseToken()).isEqualTo(1);
        assertThat(first.attempts()).isEqualTo(1);
        assertThat(first.leaseUntil()).isEqualTo(row(store).leaseUntil());

        ClaimResult again = store.claim(new ClaimRequest(ATTEMPT, KEY, TOOL, "h", "{}", LONG, RETENTION, true));
        assertThat(again).isInstanceOf(ClaimResult.Existing.class);
        assertThat(((ClaimResult.Existing) again).operation().leaseToken()).isEqualTo(1);
        assertThat(claim(store, "another_tool", LONG, true).leaseToken()).isEqualTo(1);
    }

    @OnBothDatabases
    void takeOverNeedsTheObservedStatusAndTokenAndReportsTheNewToken(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, true);
        assertApplied(store.fail(TOOL, KEY, 1, ATTEMPT, true, "{}", END));
        StoredOperation failed = row(store);
        assertThat(failed.status()).isEqualTo(OperationStatus.FAILED_SAFE);

        assertLost(store.takeOver(new Takeover("taker", TOOL, KEY, OperationStatus.NEEDS_RECONCILIATION, 1, false, false,
                LONG, RETENTION, true)), failed, store);
        assertLost(store.takeOver(new Takeover("taker", TOOL, KEY, OperationStatus.FAILED_SAFE, 2, false, false, LONG,
                RETENTION, true)), failed, store);
        assertLost(store.takeOver(new Takeover("taker", "another_tool", KEY, OperationStatus.FAILED_SAFE, 1, false, false,
                LONG, RETENTION, true)), failed, store);

        Transition.Applied owned = assertApplied(store.takeOver(new Takeover("taker", TOOL, KEY, OperationStatus.FAILED_SAFE,
                1, false, false, LONG, RETENTION, false)));
        assertThat(owned.leaseToken()).isEqualTo(2);
        assertThat(owned.attempts()).isEqualTo(2);
        StoredOperation taken = row(store);
        assertThat(taken.status()).isEqualTo(OperationStatus.IN_PROGRESS);
        assertThat(taken.leaseToken()).isEqualTo(2);
        assertThat(taken.leaseUntil()).isEqualTo(owned.leaseUntil());
        assertThat(taken.leaseExpired()).isFalse();
        // The same observation cannot win twice.
        assertLost(store.takeOver(new Takeover("taker", TOOL, KEY, OperationStatus.FAILED_SAFE, 1, false, false, LONG,
                RETENTION, false)), taken, store);
    }

    @OnBothDatabases
    void takeOverOfARunningOperationNeedsAnExpiredLeaseAndWhenAskedNoEffect(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, false);
        StoredOperation live = row(store);
        assertLost(store.takeOver(new Takeover("taker", TOOL, KEY, OperationStatus.IN_PROGRESS, 1, true, true, LONG,
                RETENTION, false)), live, store);
        store.close();

        db.update("DELETE FROM tool_operations");
        JdbcOperationStore again = store(db);
        claimExpired(db, again, true);
        StoredOperation startedAndExpired = row(again);
        assertLost(again.takeOver(new Takeover("taker", TOOL, KEY, OperationStatus.IN_PROGRESS, 1, true, true, LONG,
                RETENTION, false)), startedAndExpired, again);

        db.update("UPDATE tool_operations SET effect_started = FALSE");
        Transition.Applied owned = assertApplied(again.takeOver(new Takeover("taker", TOOL, KEY, OperationStatus.IN_PROGRESS,
                1, true, true, LONG, RETENTION, false)));
        assertThat(owned.leaseToken()).isEqualTo(2);
    }

    @OnBothDatabases
    void expireLeaseNeedsAnExpiredLeaseTheTokenAndForSafeNoEffect(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, true);
        assertLost(store.expireLease(TOOL, KEY, 1, false, "{}"), row(store), store);
        db.update("DELETE FROM tool_operations");

        claimExpired(db, store, true);
        StoredOperation expired = row(store);
        assertLost(store.expireLease(TOOL, KEY, 2, false, "{}"), expired, store);
        assertLost(store.expireLease(TOOL, KEY, 1, true, "{}"), expired, store);

        Transition.Applied ended = assertApplied(store.expireLease(TOOL, KEY, 1, false, "{\"why\":\"dead\"}"));
        assertThat(ended.leaseToken()).isEqualTo(2);
        assertThat(ended.leaseUntil()).isNull();
        StoredOperation after = row(store);
        assertThat(after.status()).isEqualTo(OperationStatus.NEEDS_RECONCILIATION);
        assertThat(after.leaseToken()).isEqualTo(2);
        assertLost(store.expireLease(TOOL, KEY, 1, false, "{}"), after, store);
    }

    @OnBothDatabases
    void aSafeExpiryNeedsTheEffectNotStarted(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claimExpired(db, store, false);
        assertApplied(store.expireLease(TOOL, KEY, 1, true, "{}"));
        assertThat(row(store).status()).isEqualTo(OperationStatus.FAILED_SAFE);
    }

    @OnBothDatabases
    void theEffectBoundaryAndTheHeartbeatNeedTheTokenALiveLeaseAndInProgress(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, false);
        StoredOperation live = row(store);
        assertLost(store.markEffectStarting(TOOL, KEY, 2, ATTEMPT, "psp-1", LONG), live, store);
        assertLost(store.heartbeat(TOOL, KEY, 2, ATTEMPT, LONG), live, store);

        assertApplied(store.markEffectStarting(TOOL, KEY, 1, ATTEMPT, "psp-1", LONG));
        assertThat(row(store).effectStarted()).isTrue();
        assertThat(row(store).downstreamId()).isEqualTo("psp-1");
        Transition.Applied beat = assertApplied(store.heartbeat(TOOL, KEY, 1, ATTEMPT, LONG.multipliedBy(2)));
        assertThat(beat.leaseToken()).isEqualTo(1);
        assertThat(beat.leaseUntil()).isAfter(live.leaseUntil());

        assertApplied(store.complete(TOOL, KEY, 1, ATTEMPT, "\"done\"", END));
        StoredOperation completed = row(store);
        assertLost(store.markEffectStarting(TOOL, KEY, 1, ATTEMPT, "psp-2", LONG), completed, store);
        assertLost(store.heartbeat(TOOL, KEY, 1, ATTEMPT, LONG), completed, store);
    }

    /**
     * A record lost to a failover and claimed afresh restarts at lease token 1, the token the
     * attempt that claimed the lost record still holds: every write of a running attempt names
     * the attempt too, so the older one changes nothing on the new attempt's record.
     */
    @OnBothDatabases
    void everyWriteOfARunningAttemptNeedsItsAttemptIdAsWellAsItsToken(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, false);
        assertThat(db.update("DELETE FROM tool_operations WHERE tool = ? AND operation_key = ?", TOOL, KEY)).isOne();
        if (db.tableExists("tool_operations_open")) {
            db.update("DELETE FROM tool_operations_open WHERE tool = ? AND operation_key = ?", TOOL, KEY);
        }
        String fresh = "attempt-fresh";
        ClaimResult again = store.claim(new ClaimRequest(fresh, KEY, TOOL, "h", "{}", LONG, RETENTION, false));
        assertThat(again).isInstanceOf(ClaimResult.Inserted.class);
        assertThat(((ClaimResult.Inserted) again).leaseToken()).isEqualTo(1);
        StoredOperation running = row(store);
        assertThat(running.attemptId()).isEqualTo(fresh);

        assertLost(store.markEffectStarting(TOOL, KEY, 1, ATTEMPT, "psp-stale", LONG), running, store);
        assertLost(store.heartbeat(TOOL, KEY, 1, ATTEMPT, LONG.multipliedBy(2)), running, store);
        assertLost(store.complete(TOOL, KEY, 1, ATTEMPT, "\"stale\"", END), running, store);
        assertLost(store.fail(TOOL, KEY, 1, ATTEMPT, false, "{}", END), running, store);
        assertThat(row(store).downstreamId()).isNull();
        assertThat(row(store).leaseUntil()).isEqualTo(running.leaseUntil());

        assertApplied(store.markEffectStarting(TOOL, KEY, 1, fresh, "psp-1", LONG));
        assertApplied(store.heartbeat(TOOL, KEY, 1, fresh, LONG));
        assertApplied(store.complete(TOOL, KEY, 1, fresh, "\"done\"", END));
        assertThat(row(store).resultJson()).isEqualTo("\"done\"");
        assertThat(row(store).downstreamId()).isEqualTo("psp-1");
    }

    @OnBothDatabases
    void theEffectBoundaryAndTheHeartbeatRefuseAnExpiredLease(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claimExpired(db, store, false);
        StoredOperation expired = row(store);
        assertLost(store.markEffectStarting(TOOL, KEY, 1, ATTEMPT, "psp-1", LONG), expired, store);
        assertLost(store.heartbeat(TOOL, KEY, 1, ATTEMPT, LONG), expired, store);
        assertThat(row(store).downstreamId()).isNull();
    }

    @OnBothDatabases
    void completionAndFailureNeedTheTokenAndInProgress(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, true);
        StoredOperation running = row(store);
        assertLost(store.complete(TOOL, KEY, 2, ATTEMPT, "\"x\"", END), running, store);
        assertLost(store.fail(TOOL, KEY, 2, ATTEMPT, true, "{}", END), running, store);
        assertLost(store.complete("another_tool", KEY, 1, ATTEMPT, "\"x\"", END), running, store);

        Transition.Applied done = assertApplied(store.complete(TOOL, KEY, 1, ATTEMPT, "\"done\"", END));
        assertThat(done.leaseToken()).isEqualTo(1);
        assertThat(done.leaseUntil()).isNull();
        StoredOperation completed = row(store);
        assertThat(completed.status()).isEqualTo(OperationStatus.COMPLETED);
        assertThat(completed.resultJson()).isEqualTo("\"done\"");
        assertLost(store.complete(TOOL, KEY, 1, ATTEMPT, "\"again\"", END), completed, store);
        assertLost(store.fail(TOOL, KEY, 1, ATTEMPT, false, "{}", END), completed, store);
    }

    /**
     * The attempt on the record and the log's rows, as the view shows them: each attempt once,
     * as it stood when a take-over replaced it; a lost transition moves nothing.
     */
    @OnBothDatabases
    void eachAttemptIsInTheLogOnceAsItStoodAndALostTakeOverMovesNothing(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, true);
        assertThat(wholeLog(store, KEY)).singleElement().satisfies(a -> {
            assertThat(a.attemptId()).isEqualTo(ATTEMPT);
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.RUNNING);
            assertThat(a.leaseToken()).isEqualTo(1);
            assertThat(a.detail()).isEqualTo("attempt 1");
            assertThat(a.endedAt()).isNull();
        });
        assertApplied(store.fail(TOOL, KEY, 1, ATTEMPT, true, "{}", new AttemptEnd("psp-1", "refused before sending")));
        List<AttemptRecord> failed = wholeLog(store, KEY);
        assertThat(failed).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.FAILED_SAFE);
            assertThat(a.downstreamId()).isEqualTo("psp-1");
            assertThat(a.detail()).isEqualTo("refused before sending");
            assertThat(a.endedAt()).isNotNull();
        });

        assertLost(store.takeOver(new Takeover("taker", TOOL, KEY, OperationStatus.FAILED_SAFE, 2, false, false, LONG,
                RETENTION, true)), row(store), store);
        assertThat(wholeLog(store, KEY)).isEqualTo(failed);

        assertApplied(store.takeOver(new Takeover("taker", TOOL, KEY, OperationStatus.FAILED_SAFE, 1, false, false,
                LONG, RETENTION, true)));
        assertThat(wholeLog(store, KEY)).extracting(AttemptRecord::attemptId, AttemptRecord::outcome,
                AttemptRecord::leaseToken, AttemptRecord::detail).containsExactly(
                        tuple(ATTEMPT, AttemptOutcome.FAILED_SAFE, 1L, "refused before sending"),
                        tuple("taker", AttemptOutcome.RUNNING, 2L, "attempt 2"));
        assertThat(db.queryLong("SELECT count(*) FROM tool_operation_attempt_log")).isEqualTo(1);

        // A lost lease ends the attempt where it is: on the record while no take-over replaced it.
        store.endAttempt(TOOL, KEY, "taker", AttemptOutcome.LEASE_LOST, null, "lost");
        store.endAttempt(TOOL, KEY, ATTEMPT, AttemptOutcome.LEASE_LOST, null, "not running: unchanged");
        assertThat(wholeLog(store, KEY)).extracting(AttemptRecord::attemptId, AttemptRecord::outcome,
                AttemptRecord::detail).containsExactly(
                        tuple(ATTEMPT, AttemptOutcome.FAILED_SAFE, "refused before sending"),
                        tuple("taker", AttemptOutcome.LEASE_LOST, "lost"));
    }

    @OnBothDatabases
    void aFailureIsRecordedAsSafeOrUncertain(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, true);
        assertApplied(store.fail(TOOL, KEY, 1, ATTEMPT, false, "{\"type\":\"Timeout\"}", END));
        StoredOperation uncertain = row(store);
        assertThat(uncertain.status()).isEqualTo(OperationStatus.NEEDS_RECONCILIATION);
        assertThat(uncertain.effectStarted()).isTrue();
        assertThat(uncertain.leaseUntil()).isNull();
        // A failure is recorded once: the row is no longer in progress.
        assertLost(store.fail(TOOL, KEY, 1, ATTEMPT, true, "{}", END), uncertain, store);
        assertLost(store.complete(TOOL, KEY, 1, ATTEMPT, "\"late\"", END), uncertain, store);
    }

    @OnBothDatabases
    void settlementsNeedNeedsReconciliationAndTheTokenAndMoveTheToken(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, true);
        StoredOperation running = row(store);
        assertLost(store.settleApplied(TOOL, KEY, 1, "\"x\""), running, store);
        assertLost(store.settleNotApplied(TOOL, KEY, 1, "alice"), running, store);

        assertApplied(store.fail(TOOL, KEY, 1, ATTEMPT, false, "{}", END));
        StoredOperation uncertain = row(store);
        assertLost(store.settleApplied(TOOL, KEY, 2, "\"x\""), uncertain, store);
        assertLost(store.settleNotApplied(TOOL, KEY, 0, "alice"), uncertain, store);

        Transition.Applied settled = assertApplied(store.settleNotApplied(TOOL, KEY, 1, "alice"));
        assertThat(settled.leaseToken()).isEqualTo(2);
        StoredOperation released = row(store);
        assertThat(released.status()).isEqualTo(OperationStatus.FAILED_SAFE);
        assertThat(released.releasedBy()).isEqualTo("alice");
        assertThat(released.effectStarted()).isFalse();
        assertLost(store.settleApplied(TOOL, KEY, 2, "\"x\""), released, store);
    }

    @OnBothDatabases
    void settledAsAppliedTheOperationIsCompletedWithTheResult(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, true);
        assertApplied(store.fail(TOOL, KEY, 1, ATTEMPT, false, "{}", END));
        Transition.Applied settled = assertApplied(store.settleApplied(TOOL, KEY, 1, "\"checked\""));
        assertThat(settled.leaseToken()).isEqualTo(2);
        StoredOperation completed = row(store);
        assertThat(completed.status()).isEqualTo(OperationStatus.COMPLETED);
        assertThat(completed.resultJson()).isEqualTo("\"checked\"");
        assertLost(store.settleNotApplied(TOOL, KEY, 2, "bob"), completed, store);
    }

    @OnBothDatabases
    void aTransitionThatChangesMoreThanOneRowIsABug(TestDatabase db) {
        JdbcOperationStore store = store(db);
        claim(store, TOOL, LONG, true);
        // Only without the primary key can a guard match two rows; the store must not carry on.
        db.update("ALTER TABLE tool_operations DROP CONSTRAINT tool_operations_pk");
        db.update("INSERT INTO tool_operations SELECT * FROM tool_operations");
        assertThatThrownBy(() -> store.complete(TOOL, KEY, 1, ATTEMPT, "\"done\"", END))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("more than one row");
    }

    /** The whole attempt log of a key these tests keep short: one page of at most the largest size. */
    private static List<AttemptRecord> wholeLog(JdbcOperationStore store, String key) {
        AttemptPage page = store.attempts(TOOL, key, EnumSet.allOf(AttemptOutcome.class), 0, AttemptPage.MAX_LIMIT);
        assertThat(page.hasMore()).isFalse();
        return page.attempts();
    }
}
