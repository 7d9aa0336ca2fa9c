package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.CountingMetrics.Event;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;

/** One key's attempt log tells its whole story, and the metrics count every answer. */
class MetricsAndAttemptLogTest {

    @OnBothDatabases
    void attemptLogShowsTheDecisionEveryAttemptAndEveryAnswer(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());
        FakeProvider provider = new FakeProvider();
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.UNCERTAIN).build();
        String key = "refund:invoice_842:approved_17";
        Map<String, Object> payload = Map.of("invoiceId", "invoice_842", "amount", 1250);

        assertThatThrownBy(() -> runtime.call(refund, key, payload, String.class, () -> {
            OperationContext.current().effectStarting("psp-" + key);
            provider.apply(key, "refund");
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);
        runtime.call(refund, key, payload, String.class, () -> {
            OperationContext.current().effectStarting("psp-" + key);
            return provider.apply(key, "refund");
        });
        runtime.call(refund, key, payload, String.class, () -> provider.apply(key, "refund"));
        assertThatThrownBy(() -> runtime.call(refund, key, Map.of("invoiceId", "invoice_842", "amount", 9999),
                String.class, () -> provider.apply(key, "refund"))).isInstanceOf(PayloadConflictException.class);

        OperationRecord record = runtime.operations().find(refund.name(), key).orElseThrow();
        assertThat(record.status()).isEqualTo(OperationStatus.COMPLETED);
        assertThat(record.attempts()).isEqualTo(2);
        assertThat(record.downstreamId()).isEqualTo("psp-" + key);
        assertThat(record.attemptLog()).extracting(AttemptRecord::outcome).containsExactly(
                AttemptOutcome.NEEDS_RECONCILIATION, AttemptOutcome.COMPLETED, AttemptOutcome.REPLAYED,
                AttemptOutcome.PAYLOAD_CONFLICT);
        assertThat(record.attemptLog().get(0).detail()).contains("reply lost");
        assertThat(record.attemptLog().get(0).downstreamId()).isEqualTo("psp-" + key);
        assertThat(record.attemptLog()).allSatisfy(a -> assertThat(a.startedAt()).isNotNull());
        assertThat(record.attemptLog()).extracting(AttemptRecord::endedAt).doesNotContainNull();

        assertThat(metrics.count("refund", Event.ATTEMPTS)).isEqualTo(4);
        assertThat(metrics.count("refund", Event.EXECUTIONS)).isEqualTo(2);
        assertThat(metrics.count("refund", Event.REPLAYS)).isEqualTo(1);
        assertThat(metrics.count("refund", Event.PAYLOAD_CONFLICTS)).isEqualTo(1);
        assertThat(metrics.count("refund", Event.AWAITING_RECONCILIATION)).isEqualTo(1);
        assertThat(metrics.count("refund", Event.RECONCILED_UNKNOWN)).isZero();
        assertThat(provider.effects()).isEqualTo(1);
    }

    @OnBothDatabases
    void aFailureBeforeTheEffectBoundaryIsCountedAsFailedSafe(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());
        FakeProvider provider = new FakeProvider();
        ToolPolicy refund = Policies.marked("refund", Retry.SAFE).build();

        // The body fails before it marks the effect's start: nothing can have happened downstream.
        assertThatThrownBy(() -> runtime.call(refund, "before-effect", Map.of(), String.class, () -> {
            throw new IllegalStateException("validation failed");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(db.status("before-effect")).isEqualTo("failed_safe");
        assertThat(metrics.count("refund", Event.FAILED_SAFE)).isEqualTo(1);
        assertThat(metrics.count("refund", Event.AWAITING_RECONCILIATION)).isZero();
        assertThat(metrics.count("refund", Event.EXECUTIONS)).isEqualTo(1);
        assertThat(provider.effects()).isZero();
    }

    @OnBothDatabases
    void inProgressAnswersAreCounted(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.SAFE).build();
        runtime.call(refund, "k", Map.of(), String.class, () -> {
            assertThatThrownBy(() -> runtime.call(refund, "k", Map.of(), String.class, () -> "inner"))
                    .isInstanceOf(OperationInProgressException.class);
            return "outer";
        });
        assertThat(metrics.count("refund", Event.IN_PROGRESS)).isEqualTo(1);
        assertThat(metrics.count("refund", Event.EXECUTIONS)).isEqualTo(1);
    }

    @OnBothDatabases
    void purgeDeletesOnlyFinishedOperationsPastTheirRetention(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        // A retention may not be shorter than the lease (the release gate's rule, which the builder applies too).
        java.time.Duration second = java.time.Duration.ofSeconds(1);
        ToolPolicy shortLived = Policies.downstreamKey("refund", Retry.SAFE).lease(second).retention(second).build();
        ToolPolicy email = Policies.manualReview("email", Retry.SAFE).lease(second).retention(second).build();
        runtime.call(shortLived, "done", Map.of(), String.class, () -> "x");
        runtime.call(Policies.downstreamKey("refund", Retry.SAFE).build(), "kept", Map.of(), String.class, () -> "x");
        assertThatThrownBy(() -> runtime.call(email, "uncertain", Map.of(), String.class, () -> {
            throw new IllegalStateException("lost");
        })).isInstanceOf(IllegalStateException.class);
        TestDatabase.await(() -> db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = 'done'"
                + " AND expires_at <= CURRENT_TIMESTAMP") == 1, java.time.Duration.ofSeconds(10), "retention to pass");

        assertThat(runtime.operations().purgeExpired("default")).isEqualTo(1);

        assertThat(db.status("done")).isNull();
        assertThat(db.attemptOutcomes("done")).isEmpty();
        assertThat(db.status("kept")).isEqualTo("completed");
        assertThat(db.status("uncertain")).isEqualTo("needs_reconciliation");
    }
}
