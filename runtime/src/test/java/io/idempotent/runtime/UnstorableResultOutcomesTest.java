package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.BadInputTest.Node;
import io.idempotent.runtime.CountingMetrics.Event;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.Takeover;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;

/**
 * A body returned a result that cannot be stored (here a cyclic object): the operation goes to
 * needs_reconciliation by the attempt's fenced final write, and what the row says decides the
 * rest: written (counted as awaiting reconciliation), taken over by another attempt (left alone,
 * the caller told so), lost (written again), or not writable at all (the caller told why).
 */
class UnstorableResultOutcomesTest {

    private static final String FAILURE = "SET status = ?, error_json = ?, lease_until = NULL";
    private static final String RECREATE = "INSERT INTO tool_operations (tool, operation_key, payload_hash,"
            + " payload_json, status, lease_token, lease_until, effect_started, downstream_id";
    private static final String KEY = "refund:invoice_842";
    private static final Map<String, Object> PAYLOAD = Map.of("id", KEY);
    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();
    /** The final write is tried while the lease lasts: a short one keeps the store-down test short. */
    private static final ToolPolicy SHORT_LEASE = Policies.downstreamKey("refund", Retry.SAFE)
            .lease(Duration.ofSeconds(1)).build();

    private static Node cyclic() {
        Node a = new Node();
        Node b = new Node();
        a.next = b;
        b.next = a;
        return a;
    }

    private static void loseTheRecord(TestDatabase db) {
        assertThat(db.update("DELETE FROM tool_operations WHERE operation_key = ?", KEY)).isEqualTo(1);
        if (db.tableExists("tool_operations_open")) {
            db.update("DELETE FROM tool_operations_open WHERE operation_key = ?", KEY);
        }
    }

    @OnBothDatabases
    void theRecordAwaitsReconciliationAndIsCountedSo(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());

        Throwable refused = catchThrowable(() -> runtime.call(REFUND, KEY, PAYLOAD, Node.class,
                UnstorableResultOutcomesTest::cyclic));

        assertThat(refused).isInstanceOf(ResultNotReplayableException.class);
        assertThat(refused.getSuppressed()).isEmpty();
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("NEEDS_RECONCILIATION");
        assertThat(metrics.count("refund", Event.AWAITING_RECONCILIATION)).isEqualTo(1);
    }

    @OnBothDatabases
    void aRecordAnotherAttemptTookOverIsLeftAloneAndTheCallerIsToldTheLeaseWasLost(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());
        OperationStore other = RuntimeAccess.engine(db.runtime()).stores().get("default", "refund");

        Throwable refused = catchThrowable(() -> runtime.call(REFUND, KEY, PAYLOAD, Node.class, () -> {
            assertThat(other.takeOver(new Takeover("another-attempt", "refund", KEY, OperationStatus.IN_PROGRESS, 1,
                    false, false, Duration.ofMinutes(1), Duration.ofDays(1), true)).applied()).isTrue();
            return cyclic();
        }));

        assertThat(refused).isInstanceOf(ResultNotReplayableException.class);
        assertThat(refused.getSuppressed()).singleElement().isInstanceOf(LeaseLostException.class);
        assertThat(db.status(KEY)).isEqualTo("in_progress");
        assertThat(db.queryString("SELECT attempt_id FROM tool_operations WHERE operation_key = ?", KEY))
                .isEqualTo("another-attempt");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("LEASE_LOST", "RUNNING");
        assertThat(metrics.count("refund", Event.AWAITING_RECONCILIATION)).isZero();
    }

    @OnBothDatabases
    void aLostRecordIsWrittenAgainAwaitingReconciliation(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());

        Throwable refused = catchThrowable(() -> runtime.call(REFUND, KEY, PAYLOAD, Node.class, () -> {
            loseTheRecord(db);
            return cyclic();
        }));

        assertThat(refused).isInstanceOf(ResultNotReplayableException.class);
        assertThat(refused.getSuppressed()).isEmpty();
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
        assertThat(metrics.count("refund", Event.AWAITING_RECONCILIATION)).isEqualTo(1);
    }

    @OnBothDatabases
    void aLostRecordThatCannotBeWrittenAgainIsSaidToTheCaller(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());

        Throwable refused = catchThrowable(() -> runtime.call(REFUND, KEY, PAYLOAD, Node.class, () -> {
            loseTheRecord(db);
            faulty.breakUpdates(RECREATE, Integer.MAX_VALUE, Strike.BEFORE_EXECUTING);
            return cyclic();
        }));

        assertThat(refused).isInstanceOf(ResultNotReplayableException.class);
        assertThat(refused.getSuppressed()).singleElement().isInstanceOf(NeedsReconciliationException.class);
        assertThat(faulty.injected()).isPositive();
        assertThat(db.operationRows()).isZero();
    }

    @OnBothDatabases
    void aStoreThatCannotRecordItLeavesTheLeaseToExpireAndSaysSo(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).metrics(metrics)
                .build());

        Throwable refused = catchThrowable(() -> runtime.call(SHORT_LEASE, KEY, PAYLOAD, Node.class, () -> {
            faulty.breakUpdates(FAILURE, Integer.MAX_VALUE, Strike.BEFORE_EXECUTING);
            return cyclic();
        }));

        assertThat(refused).isInstanceOf(ResultNotReplayableException.class);
        assertThat(refused.getSuppressed()).singleElement().isInstanceOf(StoreUnavailableException.class);
        assertThat(db.status(KEY)).isEqualTo("in_progress");
        assertThat(metrics.count("refund", Event.AWAITING_RECONCILIATION)).isZero();
    }
}
