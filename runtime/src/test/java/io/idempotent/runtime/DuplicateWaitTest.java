package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A duplicate that arrives while the original runs: with {@code duplicateWait} it waits, bounded,
 * for the original's outcome and answers with it; without (the default) it is answered in
 * progress at once. On H2 and PostgreSQL, each a bounded poll of the row.
 */
class DuplicateWaitTest {

    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");
    private static final ToolPolicy REFUND = Policies.manualReview("refund", Retry.SAFE).build();

    /** The original: a call whose body is held until released. */
    private static final class Original {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger runs = new AtomicInteger();
        final CompletableFuture<String> answer;

        Original(IdempotentRuntime runtime, ToolPolicy policy, boolean fail) {
            answer = CompletableFuture.supplyAsync(() -> runtime.call(policy, "refund:1", PAYLOAD, String.class,
                    () -> body(fail)));
        }

        String body(boolean fail) {
            runs.incrementAndGet();
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
            if (fail) {
                throw new IllegalStateException("the provider timed out");
            }
            return "refund-r1";
        }
    }

    /** The duplicate, on a thread of its own; returns it once it waits in the runtime (or has ended). */
    private static Thread duplicate(IdempotentRuntime runtime, ToolPolicy policy, AtomicInteger runs,
            AtomicReference<Object> outcome) {
        Thread thread = new Thread(() -> {
            try {
                outcome.set(runtime.call(policy, "refund:1", PAYLOAD, String.class, () -> {
                    runs.incrementAndGet();
                    return "second run";
                }));
            } catch (RuntimeException e) {
                outcome.set(e);
            }
        }, "duplicate");
        thread.start();
        TestDatabase.await(() -> thread.getState() == Thread.State.TIMED_WAITING || !thread.isAlive(),
                Duration.ofSeconds(20), "the duplicate waiting");
        return thread;
    }

    @OnBothDatabases
    void aWaitingDuplicateAnswersWithTheOriginalsResult(TestDatabase db) throws Exception {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().duplicateWait(Duration.ofSeconds(20))
                .metrics(metrics).build());
        Original original = new Original(runtime, REFUND, false);
        assertThat(original.entered.await(20, TimeUnit.SECONDS)).isTrue();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter = duplicate(runtime, REFUND, original.runs, outcome);
        assertThat(waiter.isAlive()).as("the duplicate waits for the original").isTrue();

        original.release.countDown();
        assertThat(original.answer.get(20, TimeUnit.SECONDS)).isEqualTo("refund-r1");
        waiter.join(20_000);
        assertThat(outcome.get()).isEqualTo("refund-r1");
        assertThat(original.runs).hasValue(1);
        assertThat(metrics.count("refund", CountingMetrics.Event.DUPLICATE_WAITS_ANSWERED)).isEqualTo(1);
        assertThat(metrics.count("refund", CountingMetrics.Event.REPLAYS)).isEqualTo(1);
        db.flushAttemptLogs();
        assertThat(db.attemptOutcomes("refund:1")).containsExactly("COMPLETED", "REPLAYED");
    }

    @OnBothDatabases
    void withoutTheSettingADuplicateIsAnsweredInProgressAtOnce(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        Original original = new Original(runtime, REFUND, false);
        assertThat(original.entered.await(20, TimeUnit.SECONDS)).isTrue();
        try {
            assertThatThrownBy(() -> runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> "second run"))
                    .isInstanceOf(OperationInProgressException.class);
        } finally {
            original.release.countDown();
        }
        assertThat(original.answer.get(20, TimeUnit.SECONDS)).isEqualTo("refund-r1");
        assertThat(original.runs).hasValue(1);
    }

    @OnBothDatabases
    void aWaitPastItsBoundAnswersInProgress(TestDatabase db) throws Exception {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().duplicateWait(Duration.ofMillis(300))
                .metrics(metrics).build());
        Original original = new Original(runtime, REFUND, false);
        assertThat(original.entered.await(20, TimeUnit.SECONDS)).isTrue();
        try {
            assertThatThrownBy(() -> runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> "second run"))
                    .isInstanceOf(OperationInProgressException.class);
        } finally {
            original.release.countDown();
        }
        assertThat(original.answer.get(20, TimeUnit.SECONDS)).isEqualTo("refund-r1");
        assertThat(original.runs).hasValue(1);
        assertThat(metrics.count("refund", CountingMetrics.Event.DUPLICATE_WAITS_TIMED_OUT)).isEqualTo(1);
        assertThat(metrics.count("refund", CountingMetrics.Event.IN_PROGRESS)).isEqualTo(1);
    }

    @OnBothDatabases
    void anOriginalFailingAfterItsEffectMayHaveBegunGivesTheWaiterThatClassifiedFailure(TestDatabase db)
            throws Exception {
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().duplicateWait(Duration.ofSeconds(20)).build());
        Original original = new Original(runtime, REFUND, true);
        assertThat(original.entered.await(20, TimeUnit.SECONDS)).isTrue();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter = duplicate(runtime, REFUND, original.runs, outcome);
        original.release.countDown();
        assertThatThrownBy(() -> original.answer.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasRootCauseInstanceOf(IllegalStateException.class);
        waiter.join(20_000);
        assertThat(outcome.get()).isInstanceOf(NeedsReconciliationException.class);
        assertThat(original.runs).as("never a second run").hasValue(1);
        assertThat(db.status("refund:1")).isEqualTo("needs_reconciliation");
    }

    @OnBothDatabases
    void anOriginalFailingSafeGivesTheWaiterARetryableFailureAndItsRepeatRunsTheBody(TestDatabase db)
            throws Exception {
        ToolPolicy marked = Policies.marked("refund", Retry.SAFE).build();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().duplicateWait(Duration.ofSeconds(20)).build());
        Original original = new Original(runtime, marked, true);
        assertThat(original.entered.await(20, TimeUnit.SECONDS)).isTrue();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter = duplicate(runtime, marked, original.runs, outcome);
        original.release.countDown();
        assertThatThrownBy(() -> original.answer.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        waiter.join(20_000);
        assertThat(outcome.get()).isInstanceOf(OperationFailedException.class);
        assertThat(original.runs).as("never a second run while waiting").hasValue(1);
        assertThat(db.status("refund:1")).isEqualTo("failed_safe");
        // Retry.SAFE re-runs a failed-safe operation: the waiter is told to repeat, not to give up.
        OperationFailedException failed = (OperationFailedException) outcome.get();
        assertThat(failed.retryable()).as("a failed-safe original under Retry.SAFE").isTrue();
        assertThat(ToolErrorReply.forModel(failed).orElseThrow().kind()).isEqualTo(ToolErrorReply.Kind.RETRY_LATER);
        // The repeat (same key, same payload) claims the failed-safe row and runs the body once.
        assertThat(runtime.call(marked, "refund:1", PAYLOAD, String.class, () -> {
            original.runs.incrementAndGet();
            return "refund-r2";
        })).isEqualTo("refund-r2");
        assertThat(original.runs).hasValue(2);
        assertThat(db.status("refund:1")).isEqualTo("completed");
    }

    @OnBothDatabases
    void underRetryNeverTheWaiterOfAFailedSafeOriginalGetsWhatAFreshCallGets(TestDatabase db) throws Exception {
        ToolPolicy never = Policies.marked("refund", Retry.NEVER).build();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().duplicateWait(Duration.ofSeconds(20)).build());
        Original original = new Original(runtime, never, true);
        assertThat(original.entered.await(20, TimeUnit.SECONDS)).isTrue();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter = duplicate(runtime, never, original.runs, outcome);
        original.release.countDown();
        assertThatThrownBy(() -> original.answer.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        waiter.join(20_000);
        assertThat(outcome.get()).isInstanceOf(OperationFailedException.class);
        OperationFailedException failed = (OperationFailedException) outcome.get();
        assertThat(failed.retryable()).as("Retry.NEVER does not re-run a failed-safe operation").isFalse();
        assertThat(ToolErrorReply.forModel(failed).orElseThrow().kind()).isEqualTo(ToolErrorReply.Kind.IN_REVIEW);
        assertThatThrownBy(() -> runtime.call(never, "refund:1", PAYLOAD, String.class, () -> "second run"))
                .isInstanceOf(OperationFailedException.class)
                .satisfies(e -> assertThat(((OperationFailedException) e).retryable()).isFalse());
        assertThat(original.runs).hasValue(1);
        assertThat(db.status("refund:1")).isEqualTo("failed_safe");
    }

    @Test
    void aNegativeBoundIsRefused() {
        assertThatThrownBy(() -> IdempotentRuntime.builder().duplicateWait(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicateWait");
    }
}
