package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.Invocation;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.idempotent.runtime.testing.Workers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** The four contract tests that prove the protocol, on H2 and PostgreSQL. */
class ProtocolContractTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();

    @OnBothDatabases
    void duplicateAfterCompletionGetsTheStoredResult(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        Map<String, Object> payload = Map.of("invoiceId", "invoice_842", "amountCents", 1250);

        String first = runtime.call(REFUND, "refund:invoice_842:approved_17", payload, String.class,
                () -> provider.apply("refund 1250"));
        String second = runtime.call(REFUND, "refund:invoice_842:approved_17", payload, String.class,
                () -> provider.apply("refund 1250"));

        assertThat(second).isEqualTo(first).isEqualTo("done:refund 1250");
        assertThat(provider.invocations()).isEqualTo(1);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status("refund:invoice_842:approved_17")).isEqualTo("completed");
        assertThat(db.attemptOutcomes("refund:invoice_842:approved_17")).containsExactly("COMPLETED", "REPLAYED");
    }

    @OnBothDatabases
    void sameKeyWithChangedPayloadIsRejected(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        String key = "refund:invoice_842:approved_17";
        runtime.call(REFUND, key, Map.of("invoiceId", "invoice_842", "amountCents", 1250), String.class,
                () -> provider.apply("refund 1250"));

        assertThatThrownBy(() -> runtime.call(REFUND, key, Map.of("invoiceId", "invoice_842", "amountCents", 9999),
                String.class, () -> provider.apply("refund 9999")))
                .isInstanceOf(PayloadConflictException.class)
                .hasMessageContaining(key)
                .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.invocations()).isEqualTo(1);
        assertThat(db.attemptOutcomes(key)).containsExactly("COMPLETED", "PAYLOAD_CONFLICT");
    }

    @OnBothDatabases
    void sixteenThreadsRacingOneKeyAreSerialisedByTheStore(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        String key = "refund:invoice_842:approved_17";
        Map<String, Object> payload = Map.of("invoiceId", "invoice_842");
        int threads = 16;
        CyclicBarrier start = new CyclicBarrier(threads);
        // The winner's body holds until every other caller has been answered, so the others can
        // only see the operation in progress: the store, not timing, decides who runs.
        CountDownLatch othersAnswered = new CountDownLatch(threads - 1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Object>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    try {
                        return runtime.call(REFUND, key, payload, String.class, () -> {
                            if (!othersAnswered.await(30, TimeUnit.SECONDS)) {
                                throw new AssertionError("the other callers were not answered");
                            }
                            return provider.apply(key, "refund");
                        });
                    } catch (OperationInProgressException e) {
                        othersAnswered.countDown();
                        return e;
                    }
                }));
            }
            List<Object> outcomes = new ArrayList<>();
            for (Future<Object> f : results) {
                outcomes.add(f.get(60, TimeUnit.SECONDS));
            }
            assertThat(outcomes).filteredOn(o -> o instanceof OperationInProgressException).hasSize(threads - 1)
                    .allSatisfy(e -> assertThat(((IdempotencyException) e).retryable()).isTrue());
            assertThat(outcomes).filteredOn("done:refund"::equals).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.invocations()).isEqualTo(1);
        // After the winner completed, a late duplicate gets the replay.
        assertThat(runtime.call(REFUND, key, payload, String.class, () -> provider.apply(key, "refund")))
                .isEqualTo("done:refund");
        assertThat(provider.invocations()).isEqualTo(1);
        assertThat(db.queryLong("SELECT attempts FROM tool_operations WHERE operation_key = ?", key)).isEqualTo(1);
    }

    @OnBothDatabases
    void failureAfterTheEffectBecomesNeedsReconciliationAndIsNeverReExecuted(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy email = Policies.manualReview("email", Retry.SAFE).build();
        String key = "email:welcome:user_7";
        Map<String, Object> payload = Map.of("userId", "user_7");

        assertThatThrownBy(() -> runtime.call(email, key, payload, String.class, () -> {
            provider.apply("welcome mail");
            throw new java.io.UncheckedIOException(new java.net.SocketTimeoutException("reply lost"));
        })).isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("reply lost");
        assertThat(db.status(key)).isEqualTo("needs_reconciliation");

        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> runtime.call(email, key, payload, String.class,
                    () -> provider.apply("welcome mail")))
                    .isInstanceOf(NeedsReconciliationException.class)
                    .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
        }
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.invocations()).isEqualTo(1);
        assertThat(db.status(key)).isEqualTo("needs_reconciliation");
    }

    @OnBothDatabases
    void abandonedAttemptWhoseLeaseExpiresBecomesNeedsReconciliation(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy email = Policies.manualReview("email", Retry.SAFE).lease(Duration.ofSeconds(1)).build();
        String key = "email:welcome:user_8";
        Map<String, Object> payload = Map.of("userId", "user_8");

        // A worker claims the key, reaches the provider, and dies before completing.
        Invocation.Execution dying = Workers.enterBody(runtime, email, key, payload);
        provider.apply("welcome mail");
        dying.abandon();
        db.awaitLeaseExpired(key);

        assertThatThrownBy(() -> runtime.call(email, key, payload, String.class, () -> provider.apply("welcome mail")))
                .isInstanceOf(NeedsReconciliationException.class);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status(key)).isEqualTo("needs_reconciliation");
        assertThat(db.attemptOutcomes(key)).containsExactly("RUNNING", "LEASE_EXPIRED", "RECONCILED_UNKNOWN");
    }
}
