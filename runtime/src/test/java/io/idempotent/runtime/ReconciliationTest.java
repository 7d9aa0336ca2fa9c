package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.idempotent.runtime.testing.Workers;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/** Reconciler answers and manual settlement, on H2 and PostgreSQL. */
class ReconciliationTest {

    private static final Map<String, Object> PAYLOAD = Map.of("userId", "user_7");
    private static final String KEY = "email:welcome:user_7";

    /** Leaves {@link #KEY} in needs_reconciliation after one real effect. */
    private static void failAfterEffect(IdempotentRuntime runtime, ToolPolicy policy, FakeProvider provider) {
        assertThatThrownBy(() -> runtime.call(policy, KEY, PAYLOAD, String.class, () -> {
            OperationContext.current().effectStarting("mail-ref-" + KEY);
            provider.apply("mail-ref-" + KEY, "welcome");
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);
    }

    private static ToolPolicy withReconciler(Reconciler<?> reconciler, Retry retry) {
        return ToolPolicy.builder("email").keyTemplate("email:welcome:{userId}").downstreamKey(false).retry(retry)
                .reconciler(() -> reconciler, "TestReconciler").build();
    }

    @OnBothDatabases
    void appliedCompletesTheOperationWithTheReconciledResult(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());
        FakeProvider provider = new FakeProvider();
        AtomicReference<OperationRecord> seen = new AtomicReference<>();
        ToolPolicy email = withReconciler(op -> {
            seen.set(op);
            return provider.applied(op.downstreamId()) ? Reconciliation.applied("sent:" + op.downstreamId())
                    : Reconciliation.notApplied("no such message");
        }, Retry.SAFE);
        failAfterEffect(runtime, email, provider);

        String result = runtime.call(email, KEY, PAYLOAD, String.class, () -> provider.apply("welcome again"));

        assertThat(result).isEqualTo("sent:mail-ref-" + KEY);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status(KEY)).isEqualTo("completed");
        assertThat(seen.get().payload().get("userId").asText()).isEqualTo("user_7");
        assertThat(seen.get().tool()).isEqualTo("email");
        assertThat(seen.get().attemptLog()).extracting(AttemptRecord::outcome)
                .containsExactly(AttemptOutcome.NEEDS_RECONCILIATION);
        // Later duplicates replay the reconciled result without asking again.
        assertThat(runtime.call(email, KEY, PAYLOAD, String.class, () -> "never")).isEqualTo(result);
        assertThat(metrics.count("email", CountingMetrics.Event.RECONCILED_APPLIED)).isEqualTo(1);
        assertThat(metrics.count("email", CountingMetrics.Event.EXECUTIONS)).isEqualTo(1);
        assertThat(db.attemptOutcomes(KEY)).containsExactly("NEEDS_RECONCILIATION", "RECONCILED_APPLIED", "REPLAYED");
    }

    @OnBothDatabases
    void notAppliedMakesTheOperationClaimableAndTheRetryRuns(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy email = withReconciler(op -> Reconciliation.notApplied("the provider has no message "
                + op.downstreamId()), Retry.SAFE);
        assertThatThrownBy(() -> runtime.call(email, KEY, PAYLOAD, String.class, () -> {
            throw new IllegalStateException("crashed before sending");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");

        String result = runtime.call(email, KEY, PAYLOAD, String.class, () -> provider.apply("welcome"));

        assertThat(result).isEqualTo("done:welcome");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status(KEY)).isEqualTo("completed");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("NEEDS_RECONCILIATION", "RECONCILED_NOT_APPLIED",
                "COMPLETED");
    }

    @OnBothDatabases
    void unknownLeavesItForAPersonAndAFailingReconcilerCountsAsUnknown(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy unknown = withReconciler(op -> Reconciliation.unknown("provider search is down"), Retry.UNCERTAIN);
        failAfterEffect(runtime, unknown, provider);

        assertThatThrownBy(() -> runtime.call(unknown, KEY, PAYLOAD, String.class, () -> provider.apply("again")))
                .isInstanceOf(NeedsReconciliationException.class).hasMessageContaining("answered UNKNOWN")
                .hasMessageNotContaining("provider search is down");
        ToolPolicy broken = withReconciler(op -> {
            throw new java.io.IOException("timeout");
        }, Retry.SAFE);
        assertThatThrownBy(() -> runtime.call(broken, KEY, PAYLOAD, String.class, () -> provider.apply("again")))
                .isInstanceOf(NeedsReconciliationException.class).hasMessageContaining("java.io.IOException")
                .hasMessageNotContaining("timeout").hasNoCause();
        // The reconcilers' own words are kept for the operator, in the attempt log.
        assertThat(db.queryString("SELECT STRING_AGG(detail, '|') FROM tool_operation_attempts"
                + " WHERE operation_key = ? AND outcome = 'RECONCILED_UNKNOWN'", KEY))
                .contains("provider search is down").contains("java.io.IOException: timeout");

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
    }

    @OnBothDatabases
    void uncertainWithADownstreamKeyReRunsWithTheSameKey(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.UNCERTAIN).build();
        String key = "refund:invoice_842:approved_17";
        Map<String, Object> payload = Map.of("invoiceId", "invoice_842");

        assertThatThrownBy(() -> runtime.call(refund, key, payload, String.class, () -> {
            provider.apply(OperationContext.current().key(), "refund");
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(db.status(key)).isEqualTo("needs_reconciliation");

        String result = runtime.call(refund, key, payload, String.class,
                () -> provider.apply(OperationContext.current().key(), "refund"));

        assertThat(result).isEqualTo("done:refund");
        assertThat(provider.invocations()).isEqualTo(2);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status(key)).isEqualTo("completed");
    }

    @OnBothDatabases
    void uncertainWithADownstreamKeyTakesOverAnExpiredLeaseAfterTheEffectMayHaveBegun(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.UNCERTAIN).lease(Duration.ofSeconds(1)).build();
        String key = "refund:invoice_900:approved_1";
        Map<String, Object> payload = Map.of("invoiceId", "invoice_900");

        io.idempotent.runtime.internal.Invocation.Execution dead =
                Workers.enterBody(runtime, refund, key, payload);
        provider.apply(key, "refund");
        dead.abandon();
        db.awaitLeaseExpired(key);

        assertThat(runtime.call(refund, key, payload, String.class, () -> provider.apply(key, "refund")))
                .isEqualTo("done:refund");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.attemptOutcomes(key)).containsExactly("RUNNING", "LEASE_EXPIRED", "COMPLETED");
    }

    @OnBothDatabases
    void operatorSettlesAppliedAndDuplicatesReplayTheResult(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy email = Policies.manualReview("email", Retry.SAFE).build();
        failAfterEffect(runtime, email, provider);

        assertThat(runtime.operations().awaitingReconciliation("default", 10)).extracting(OperationRecord::key)
                .containsExactly(KEY);
        OperationRecord record = runtime.operations().find("email", KEY).orElseThrow();
        assertThat(record.status()).isEqualTo(OperationStatus.NEEDS_RECONCILIATION);
        assertThat(record.downstreamId()).isEqualTo("mail-ref-" + KEY);
        assertThat(record.errorJson()).contains("reply lost");

        runtime.operations().settleApplied("default", "email", KEY, "sent (checked by hand)", "alice");

        assertThat(runtime.call(email, KEY, PAYLOAD, String.class, () -> provider.apply("again")))
                .isEqualTo("sent (checked by hand)");
        assertThat(provider.effects()).isEqualTo(1);
        assertThatThrownBy(() -> runtime.operations().settleApplied("default", "email", KEY, "x", "bob"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("completed");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("NEEDS_RECONCILIATION", "SETTLED_APPLIED", "REPLAYED");
    }

    @OnBothDatabases
    void operatorSettlesNotAppliedAndEvenANeverToolRunsAgain(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy email = Policies.manualReview("email", Retry.NEVER).build();
        assertThatThrownBy(() -> runtime.call(email, KEY, PAYLOAD, String.class, () -> {
            throw new IllegalStateException("crashed");
        })).isInstanceOf(IllegalStateException.class);

        runtime.operations().settleNotApplied("default", "email", KEY, "no message in the provider's log", "alice");

        assertThat(runtime.call(email, KEY, PAYLOAD, String.class, () -> provider.apply("welcome")))
                .isEqualTo("done:welcome");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.attemptOutcomes(KEY)).containsExactly("NEEDS_RECONCILIATION", "SETTLED_NOT_APPLIED",
                "COMPLETED");
    }

    @OnBothDatabases
    void concurrentCallersReconcileOnceAndAllGetTheResult(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        ToolPolicy email = withReconciler(op -> {
            asked.incrementAndGet();
            return Reconciliation.applied("sent:" + op.downstreamId());
        }, Retry.SAFE);
        failAfterEffect(runtime, email, provider);

        int threads = 8;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            java.util.List<java.util.concurrent.Future<String>> results = new java.util.ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    start.await(10, java.util.concurrent.TimeUnit.SECONDS);
                    return runtime.call(email, KEY, PAYLOAD, String.class, () -> provider.apply("resent"));
                }));
            }
            for (java.util.concurrent.Future<String> f : results) {
                assertThat(f.get(60, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("sent:mail-ref-" + KEY);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(asked.get()).isBetween(1, threads);
        assertThat(db.attemptOutcomes(KEY)).filteredOn("RECONCILED_APPLIED"::equals).hasSize(1);
        assertThat(db.attemptOutcomes(KEY)).filteredOn("REPLAYED"::equals).hasSize(threads - 1);
    }
}
