package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.CountingMetrics.Event;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.internal.store.AttemptEnd;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.Takeover;
import io.idempotent.runtime.internal.store.Transition;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.StatementHookDataSource;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;

/**
 * What an attempt's final write (its completion or its failure) concludes from the row when the
 * write changed nothing: the row another attempt now holds is left as it is and the caller learns
 * that its outcome was not stored, even after a try the store failed; a row that is gone is
 * written again, and a row that a fresh claim made meanwhile wins. Each test changes the row from
 * inside the body, as another worker or a failover would.
 */
class FinalWriteOutcomesTest {

    private static final String COMPLETION = "SET status = 'completed', result_json = ?, error_json = NULL";
    private static final String FAILURE = "SET status = ?, error_json = ?, lease_until = NULL";
    private static final String FIND = "FROM tool_operations WHERE tool = ? AND operation_key = ?";
    private static final String KEY = "refund:invoice_842";
    private static final Map<String, Object> PAYLOAD = Map.of("id", KEY);
    private static final String OTHER = "another-attempt";

    /**
     * Another attempt (of another runtime on the same database) took the operation over and ended
     * it: {@code completed} with its own result, or failed after its effect may have begun.
     */
    private static void anotherAttemptTakesOverAndEnds(TestDatabase db, String tool, boolean completed) {
        OperationStore store = RuntimeAccess.engine(db.runtime()).stores().get("default", tool);
        Transition owned = store.takeOver(new Takeover(OTHER, tool, KEY, OperationStatus.IN_PROGRESS, 1, false, false,
                Duration.ofMinutes(1), Duration.ofDays(1), true));
        assertThat(owned.applied()).isTrue();
        AttemptEnd end = new AttemptEnd(null, null);
        assertThat((completed ? store.complete(tool, KEY, 2, OTHER, "\"theirs\"", end)
                : store.fail(tool, KEY, 2, OTHER, false, null, end)).applied()).isTrue();
    }

    /** The row is lost (a failover with asynchronous replication), in the open operations too. */
    private static void loseTheRecord(TestDatabase db) {
        assertThat(db.update("DELETE FROM tool_operations WHERE operation_key = ?", KEY)).isEqualTo(1);
        if (db.tableExists("tool_operations_open")) {
            db.update("DELETE FROM tool_operations_open WHERE operation_key = ?", KEY);
        }
    }

    @OnBothDatabases
    void aCompletionRetriedAfterAStoreFailureDoesNotTakeAnotherAttemptsCompletionForItsOwn(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();

        assertThatThrownBy(() -> runtime.call(refund, KEY, PAYLOAD, String.class, () -> {
            anotherAttemptTakesOverAndEnds(db, "refund", true);
            faulty.breakUpdates(COMPLETION, 1, Strike.BEFORE_EXECUTING);
            return provider.apply(KEY, "mine");
        })).isInstanceOf(LeaseLostException.class);

        assertThat(faulty.injected()).isEqualTo(1);
        assertThat(db.queryString("SELECT result_json FROM tool_operations WHERE operation_key = ?", KEY))
                .isEqualTo("\"theirs\"");
        assertThat(db.queryString("SELECT attempt_id FROM tool_operations WHERE operation_key = ?", KEY))
                .isEqualTo(OTHER);
        assertThat(db.attemptOutcomes(KEY)).containsExactly("LEASE_LOST", "COMPLETED");
    }

    @OnBothDatabases
    void aFailureRetriedAfterAStoreFailureDoesNotTakeAnotherAttemptsEndingForItsOwn(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).metrics(metrics)
                .build());
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.SAFE).build();
        IllegalStateException thrown = new IllegalStateException("the provider timed out");

        assertThatThrownBy(() -> runtime.call(refund, KEY, PAYLOAD, String.class, () -> {
            anotherAttemptTakesOverAndEnds(db, "refund", false);
            faulty.breakUpdates(FAILURE, 1, Strike.BEFORE_EXECUTING);
            throw thrown;
        })).isSameAs(thrown);

        assertThat(faulty.injected()).isEqualTo(1);
        assertThat(thrown.getSuppressed()).singleElement().isInstanceOf(LeaseLostException.class);
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("LEASE_LOST", "NEEDS_RECONCILIATION");
        assertThat(metrics.count("refund", Event.AWAITING_RECONCILIATION)).isZero();
    }

    @OnBothDatabases
    void aSafeFailureThatFindsNoRecordWritesItAgainFailedSafeAndTheRepeatRuns(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());
        ToolPolicy notify = Policies.marked("notify", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();
        IllegalStateException thrown = new IllegalStateException("validation failed before the effect");

        assertThatThrownBy(() -> runtime.call(notify, KEY, PAYLOAD, String.class, () -> {
            loseTheRecord(db);
            throw thrown;
        })).isSameAs(thrown);

        assertThat(thrown.getSuppressed()).isEmpty();
        assertThat(db.status(KEY)).isEqualTo("failed_safe");
        assertThat(metrics.count("notify", Event.FAILED_SAFE)).isEqualTo(1);
        assertThat(runtime.call(notify, KEY, PAYLOAD, String.class, () -> provider.apply("notify")))
                .isEqualTo("done:notify");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status(KEY)).isEqualTo("completed");
    }

    @OnBothDatabases
    void aSafeFailureWhoseLostRecordWasClaimedAfreshMeanwhileLeavesTheNewRecordAlone(TestDatabase db) {
        StatementHookDataSource hooked = new StatementHookDataSource(db);
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", hooked).metrics(metrics)
                .build());
        IdempotentRuntime other = db.runtime();
        ToolPolicy notify = Policies.marked("notify", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();
        IllegalStateException thrown = new IllegalStateException("validation failed before the effect");

        assertThatThrownBy(() -> runtime.call(notify, KEY, PAYLOAD, String.class, () -> {
            loseTheRecord(db);
            // The failure finds no record; before it writes one again, another call claims the key.
            hooked.afterStatement(FIND, () -> other.call(notify, KEY, PAYLOAD, String.class,
                    () -> provider.apply("notify")));
            throw thrown;
        })).isSameAs(thrown);

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(thrown.getSuppressed()).singleElement().isInstanceOf(LeaseLostException.class);
        assertThat(db.status(KEY)).isEqualTo("completed");
        assertThat(db.queryString("SELECT result_json FROM tool_operations WHERE operation_key = ?", KEY))
                .isEqualTo("\"done:notify\"");
        assertThat(metrics.count("notify", Event.FAILED_SAFE)).isZero();
        // The lost record took this attempt's entry with it: the log holds the new claim's only.
        assertThat(db.attemptOutcomes(KEY)).containsExactly("COMPLETED");
    }

    @OnBothDatabases
    void aFailureTheStoreCannotRecordReachesTheCallerWithTheStoreFailureAndTheRecordKeepsItsLease(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).metrics(metrics)
                .build());
        // The failure is tried while the lease lasts: a short one keeps the test short.
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.SAFE).lease(Duration.ofSeconds(1)).build();
        IllegalStateException thrown = new IllegalStateException("the provider timed out");

        assertThatThrownBy(() -> runtime.call(refund, KEY, PAYLOAD, String.class, () -> {
            faulty.breakUpdates(FAILURE, Integer.MAX_VALUE, Strike.BEFORE_EXECUTING);
            throw thrown;
        })).isSameAs(thrown);

        assertThat(thrown.getSuppressed()).singleElement().isInstanceOf(StoreUnavailableException.class);
        assertThat(db.status(KEY)).isEqualTo("in_progress");
        assertThat(metrics.count("refund", Event.AWAITING_RECONCILIATION)).isZero();
        assertThat(metrics.count("refund", Event.FAILED_SAFE)).isZero();
    }
}
