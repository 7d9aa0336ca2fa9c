package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;

/**
 * The store fails under an attempt's final write (its completion, or the record of a failure):
 * the write is tried again, fenced by the lease token, so a blip does not turn a finished call
 * into one that needs reconciliation; a store that stays down fails closed and nothing runs twice.
 */
class CompletionWriteFailureTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final String COMPLETION = "SET status = 'completed', result_json = ?, error_json = NULL";
    private static final String FAILURE = "SET status = ?, error_json = ?, lease_until = NULL";
    private static final String KEY = "refund:invoice_842:approved_17";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842", "amountCents", 1250);

    @OnBothDatabases
    void aConnectionLostBeforeTheCompletionIsTriedAgain(TestDatabase db) {
        completesDespite(db, Strike.BEFORE_EXECUTING);
    }

    @OnBothDatabases
    void aCompletionCommittedWhoseReplyWasLostIsRecognised(TestDatabase db) {
        completesDespite(db, Strike.AFTER_COMMITTING);
    }

    private static void completesDespite(TestDatabase db, Strike strike) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        FakeProvider provider = new FakeProvider();
        faulty.breakUpdates(COMPLETION, 1, strike);

        String result = runtime.call(REFUND, KEY, PAYLOAD, String.class, () -> provider.apply(KEY, "refund 1250"));

        assertThat(faulty.injected()).isEqualTo(1);
        assertThat(result).isEqualTo("done:refund 1250");
        assertThat(db.status(KEY)).isEqualTo("completed");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("COMPLETED");
        String replay = runtime.call(REFUND, KEY, PAYLOAD, String.class, () -> provider.apply(KEY, "again"));
        assertThat(replay).isEqualTo(result);
        assertThat(provider.invocations()).isEqualTo(1);
        assertThat(provider.effects()).isEqualTo(1);
    }

    @OnBothDatabases
    void aSafeFailureIsRecordedDespiteALostReplySoTheRetryRunsAtOnce(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        ToolPolicy marked = Policies.marked("notify", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();
        faulty.breakUpdates(FAILURE, 1, Strike.AFTER_COMMITTING);

        // The body fails before it marks its effect boundary: provably not applied.
        assertThatThrownBy(() -> runtime.call(marked, KEY, PAYLOAD, String.class, () -> {
            throw new IllegalStateException("validation failed before the effect");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(faulty.injected()).isEqualTo(1);
        assertThat(db.status(KEY)).isEqualTo("failed_safe");

        String result = runtime.call(marked, KEY, PAYLOAD, String.class, () -> {
            OperationContext.current().effectStarting("mail-1");
            return provider.apply("notify");
        });
        assertThat(result).isEqualTo("done:notify");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.attemptOutcomes(KEY)).containsExactly("FAILED_SAFE", "COMPLETED");
    }

    @OnBothDatabases
    void aStoreThatStaysDownForTheWholeLeaseFailsClosedAndTheRepeatDoesNotRunTheBody(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        FakeProvider provider = new FakeProvider();
        faulty.breakUpdates(COMPLETION, Integer.MAX_VALUE, Strike.BEFORE_EXECUTING);
        // The completion is tried while the lease lasts (issue 47): a short one keeps the test short.
        ToolPolicy shortLease = Policies.downstreamKey("refund", Retry.SAFE).lease(java.time.Duration.ofSeconds(1))
                .build();

        assertThatThrownBy(() -> runtime.call(shortLease, KEY, PAYLOAD, String.class,
                () -> provider.apply(KEY, "refund 1250")))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining(KEY)
                .satisfies(e -> assertThat(e.getSuppressed()).hasSize(2));
        assertThat(faulty.injected()).as("tries of the completion within the lease").isGreaterThan(3);
        assertThat(provider.effects()).isEqualTo(1);
        // The result was never stored; the attempt still holds its lease, and the effect has begun.
        assertThat(db.status(KEY)).isEqualTo("in_progress");
        assertThat(db.queryString("SELECT effect_started FROM tool_operations WHERE operation_key = ?", KEY))
                .isIn("TRUE", "true", "t");

        faulty.breakUpdates(COMPLETION, 0, Strike.BEFORE_EXECUTING);
        // The lease ran out while the completion was tried: the repeat finds it in progress, or
        // expired with its effect begun (reconciliation); either way the body does not run again.
        assertThatThrownBy(() -> runtime.call(shortLease, KEY, PAYLOAD, String.class,
                () -> provider.apply(KEY, "again")))
                .isInstanceOfAny(OperationInProgressException.class, NeedsReconciliationException.class);
        assertThat(provider.invocations()).isEqualTo(1);
    }
}
