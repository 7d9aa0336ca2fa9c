package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.CapturedLog;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** A reconciler that hangs or throws an Error leaves the operation for a person, on the record. */
class ReconcilerTimeoutTest {

    private static final String KEY = "email:welcome:user_7";
    private static final Map<String, Object> PAYLOAD = Map.of("userId", "user_7");

    private static ToolPolicy email(Reconciler<?> reconciler) {
        return ToolPolicy.builder("email").keyTemplate("email:welcome:{userId}").downstreamKey(false)
                .retry(Retry.SAFE).reconciler(() -> reconciler, "TestReconciler").build();
    }

    private static void failAfterEffect(IdempotentRuntime runtime, ToolPolicy policy) {
        assertThatThrownBy(() -> runtime.call(policy, KEY, PAYLOAD, String.class, () -> {
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);
    }

    @OnBothDatabases
    void aHangingReconcilerTimesOutAsUnknownAndEveryDuplicateGetsAnAnswer(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().reconcilerTimeout(Duration.ofMillis(200)).build());
        CountDownLatch hang = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(2);
        ToolPolicy email = email(op -> {
            entered.countDown();
            hang.await();
            return Reconciliation.notApplied("too late");
        });
        failAfterEffect(runtime, email);
        FakeProvider provider = new FakeProvider();
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 2; i++) {
                Future<String> duplicate = callers.submit(() -> runtime.call(email, KEY, PAYLOAD, String.class,
                        () -> provider.apply("again")));
                assertThatThrownBy(() -> duplicate.get(30, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .cause().isInstanceOf(NeedsReconciliationException.class)
                        .hasMessageContaining("did not answer within");
            }
            assertThat(entered.await(0, TimeUnit.SECONDS)).isTrue();
        } finally {
            hang.countDown();
            callers.shutdownNow();
        }
        assertThat(provider.invocations()).isZero();
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("NEEDS_RECONCILIATION", "RECONCILED_UNKNOWN",
                "RECONCILED_UNKNOWN");
    }

    /** What a broken reconciler may throw: not an Exception. */
    static final class ReconcilerBug extends Error {
        ReconcilerBug() {
            super("the reconciler is broken");
        }
    }

    @OnBothDatabases
    void anErrorFromTheReconcilerIsRecordedAndLoggedNotLost(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy email = email(op -> {
            throw new ReconcilerBug();
        });
        failAfterEffect(runtime, email);
        FakeProvider provider = new FakeProvider();

        try (CapturedLog log = new CapturedLog()) {
            assertThatThrownBy(() -> runtime.call(email, KEY, PAYLOAD, String.class, () -> provider.apply("again")))
                    .isInstanceOf(NeedsReconciliationException.class)
                    .hasMessageContaining(ReconcilerBug.class.getName())
                    .hasMessageNotContaining("the reconciler is broken").hasNoCause();
            assertThat(log.text()).contains(ReconcilerBug.class.getName()).contains("TestReconciler").contains(KEY)
                    .doesNotContain("the reconciler is broken");
        }
        assertThat(provider.invocations()).isZero();
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("NEEDS_RECONCILIATION", "RECONCILED_UNKNOWN");
        assertThat(db.queryString("SELECT detail FROM tool_operation_attempts WHERE operation_key = ?"
                + " AND outcome = 'RECONCILED_UNKNOWN'", KEY)).contains(ReconcilerBug.class.getName())
                .contains("the reconciler is broken");
    }
}
