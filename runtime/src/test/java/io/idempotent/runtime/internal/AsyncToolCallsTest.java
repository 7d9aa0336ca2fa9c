package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A tool whose body returns a {@code CompletionStage} keeps the synchronous protocol: one effect
 * per key, the same classification of failures, a cancellation released or uncertain by the
 * effect boundary, the lease kept while the value is pending, and no store call on the caller's
 * thread.
 */
class AsyncToolCallsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");
    /** The claim's statement on both databases (H2's INSERT, PostgreSQL's insert inside a WITH). */
    private static final String CLAIM = "INSERT INTO tool_operations (";

    private static ToolPolicy refund() {
        return Policies.downstreamKey("refund", Retry.SAFE).build();
    }

    /** A tool settled by a person that marks its effect boundary. */
    private static ToolPolicy sendNotice() {
        return Policies.marked("notify", Retry.SAFE).build();
    }

    private static AsyncToolCalls async(IdempotentRuntime runtime) {
        return RuntimeAccess.engine(runtime).async();
    }

    private static <T> T valueOf(CompletableFuture<T> stage) throws Exception {
        return stage.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** What the stage failed with (the body's or the protocol's own exception, unwrapped). */
    private static Throwable failureOf(CompletableFuture<?> stage) {
        Throwable thrown = catchThrowable(() -> stage.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertThat(thrown).as("the stage's failure").isInstanceOf(ExecutionException.class);
        return thrown.getCause();
    }

    /** A body that counts its runs and returns {@code downstream}, the pending answer of its downstream. */
    private static Supplier<CompletableFuture<String>> body(AtomicInteger runs, CompletableFuture<String> downstream) {
        return () -> {
            runs.incrementAndGet();
            return downstream;
        };
    }

    @OnBothDatabases
    void claimsOffTheCallersThreadWithItsStepStoresTheValueAndReplaysWithoutTheBody(TestDatabase db)
            throws Exception {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<String> stepSeen = new AtomicReference<>();
        AtomicReference<String> bodyThread = new AtomicReference<>();
        CompletableFuture<String> downstream = new CompletableFuture<>();
        faulty.stallStatements(CLAIM, 1);
        CompletableFuture<String> first;
        try {
            try (Step step = Step.begin("decision-7")) {
                first = async(runtime).call(refund(), "k:one", PAYLOAD, String.class, null, () -> {
                    stepSeen.set(Step.currentKey().orElse(null));
                    bodyThread.set(Thread.currentThread().getName());
                    return body(runs, downstream).get();
                });
            }
            TestDatabase.await(() -> faulty.stalledNow() == 1, WAIT, "the claim to reach the store");
            // The caller holds its stage while its claim is held at the store: no store call on its thread.
            assertThat(first).isNotDone();
            assertThat(runs).hasValue(0);
        } finally {
            faulty.releaseStalled();
        }
        TestDatabase.await(() -> runs.get() == 1, WAIT, "the body to start after the claim");
        assertThat(db.status("k:one")).isEqualTo("in_progress");
        assertThat(first).isNotDone();

        downstream.complete("refund-1");

        assertThat(valueOf(first)).isEqualTo("refund-1");
        assertThat(db.status("k:one")).isEqualTo("completed");
        assertThat(stepSeen).as("the step, taken when the tool was called").hasValue("decision-7");
        assertThat(bodyThread.get()).startsWith("idempotent-async-body-");
        CompletableFuture<String> again = async(runtime).call(refund(), "k:one", PAYLOAD, String.class, null,
                body(runs, CompletableFuture.completedFuture("refund-2")));
        assertThat(valueOf(again)).isEqualTo("refund-1");
        assertThat(runs).as("runs of the body").hasValue(1);
        CompletableFuture<String> changed = async(runtime).call(refund(), "k:one", Map.of("id", "2"), String.class,
                null, body(runs, CompletableFuture.completedFuture("refund-3")));
        assertThat(failureOf(changed)).isInstanceOf(PayloadConflictException.class);
        assertThat(runs).hasValue(1);
        assertThat(db.attemptOutcomes("k:one")).containsExactly("COMPLETED", "REPLAYED", "PAYLOAD_CONFLICT");
    }

    @OnBothDatabases
    void twoConcurrentCallsOfOneKeyMakeOneEffect(TestDatabase db) throws Exception {
        AsyncToolCalls async = async(db.runtime());
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> downstream = new CompletableFuture<>();
        CyclicBarrier together = new CyclicBarrier(2);
        List<CompletableFuture<String>> calls = new CopyOnWriteArrayList<>();
        Runnable caller = () -> {
            try {
                together.await(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            calls.add(async.call(refund(), "k:race", PAYLOAD, String.class, null, body(runs, downstream)));
        };
        Thread a = new Thread(caller);
        Thread b = new Thread(caller);
        a.start();
        b.start();
        a.join(WAIT.toMillis());
        b.join(WAIT.toMillis());
        assertThat(calls).hasSize(2);
        // The winner's value is pending, so the loser meets the held lease.
        TestDatabase.await(() -> calls.stream().anyMatch(CompletableFuture::isDone), WAIT, "the losing call's answer");
        CompletableFuture<String> loser = calls.stream().filter(CompletableFuture::isDone).findFirst().orElseThrow();
        CompletableFuture<String> winner = calls.get(calls.get(0) == loser ? 1 : 0);
        assertThat(failureOf(loser)).isInstanceOf(OperationInProgressException.class);

        downstream.complete("refund-1");

        assertThat(valueOf(winner)).isEqualTo("refund-1");
        assertThat(runs).as("runs of the body").hasValue(1);
        assertThat(valueOf(async.call(refund(), "k:race", PAYLOAD, String.class, null, body(runs, downstream))))
                .isEqualTo("refund-1");
        assertThat(runs).hasValue(1);
    }

    @OnBothDatabases
    void aFailureBeforeTheEffectBoundaryIsSafeToRetry(TestDatabase db) throws Exception {
        AsyncToolCalls async = async(db.runtime());
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> refused = new CompletableFuture<>();
        CompletableFuture<String> first = async.call(sendNotice(), "k:safe", PAYLOAD, String.class, null,
                body(runs, refused));
        TestDatabase.await(() -> runs.get() == 1, WAIT, "the body to start");

        IOException connectionRefused = new IOException("connection refused");
        refused.completeExceptionally(connectionRefused);

        assertThat(failureOf(first)).isSameAs(connectionRefused);
        assertThat(db.status("k:safe")).isEqualTo("failed_safe");
        CompletableFuture<String> retry = async.call(sendNotice(), "k:safe", PAYLOAD, String.class, null,
                body(runs, CompletableFuture.completedFuture("sent")));
        assertThat(valueOf(retry)).isEqualTo("sent");
        assertThat(runs).hasValue(2);
        assertThat(db.status("k:safe")).isEqualTo("completed");
    }

    @OnBothDatabases
    void aFailureAfterTheEffectBoundaryGoesToReconciliation(TestDatabase db) {
        AsyncToolCalls async = async(db.runtime());
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<OperationContext> attempt = new AtomicReference<>();
        CompletableFuture<String> downstream = new CompletableFuture<>();
        CompletableFuture<String> first = async.call(sendNotice(), "k:uncertain", PAYLOAD, String.class, null, () -> {
            attempt.set(OperationContext.current());
            return body(runs, downstream).get();
        });
        TestDatabase.await(() -> attempt.get() != null, WAIT, "the body to start");
        // As an asynchronous client does when it sends: on its own thread, after the body returned.
        attempt.get().effectStarting("mail-1");

        IOException timeout = new IOException("read timed out");
        downstream.completeExceptionally(timeout);

        assertThat(failureOf(first)).isSameAs(timeout);
        assertThat(db.status("k:uncertain")).isEqualTo("needs_reconciliation");
        CompletableFuture<String> retry = async.call(sendNotice(), "k:uncertain", PAYLOAD, String.class, null,
                body(runs, CompletableFuture.completedFuture("sent twice")));
        assertThat(failureOf(retry)).isInstanceOf(NeedsReconciliationException.class);
        assertThat(runs).hasValue(1);
    }

    @OnBothDatabases
    void aBodyThatThrowsIsClassifiedAsOneWhoseStageFailed(TestDatabase db) {
        AsyncToolCalls async = async(db.runtime());
        IllegalStateException thrown = new IllegalStateException("no client");
        CompletableFuture<String> call = async.call(refund(), "k:throws", PAYLOAD, String.class, null, () -> {
            throw thrown;
        });
        assertThat(failureOf(call)).isSameAs(thrown);
        // The effect boundary of this tool is the body's start: the failure is uncertain.
        assertThat(db.status("k:throws")).isEqualTo("needs_reconciliation");
    }

    @OnBothDatabases
    void aCancellationBeforeTheEffectBoundaryReleasesTheClaim(TestDatabase db) throws Exception {
        AsyncToolCalls async = async(db.runtime());
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> downstream = new CompletableFuture<>();
        CompletableFuture<String> first = async.call(sendNotice(), "k:cancel-early", PAYLOAD, String.class, null,
                body(runs, downstream));
        TestDatabase.await(() -> runs.get() == 1, WAIT, "the body to start");

        assertThat(first.cancel(true)).isTrue();

        TestDatabase.await(() -> "failed_safe".equals(db.status("k:cancel-early")), WAIT, "the claim's release");
        assertThat(downstream).as("the body's stage").isCancelled();
        CompletableFuture<String> retry = async.call(sendNotice(), "k:cancel-early", PAYLOAD, String.class, null,
                body(runs, CompletableFuture.completedFuture("sent")));
        assertThat(valueOf(retry)).isEqualTo("sent");
        assertThat(runs).hasValue(2);
    }

    @OnBothDatabases
    void aCancellationBeforeTheBodyStartedReleasesTheClaimWhateverTheBoundary(TestDatabase db) throws Exception {
        FaultyDataSource faulty = new FaultyDataSource(db);
        AsyncToolCalls async = async(db.track(IdempotentRuntime.builder().store("default", faulty).build()));
        AtomicInteger runs = new AtomicInteger();
        faulty.stallStatements(CLAIM, 1);
        try {
            CompletableFuture<String> call = async.call(refund(), "k:cancel-claiming", PAYLOAD, String.class, null,
                    body(runs, new CompletableFuture<>()));
            TestDatabase.await(() -> faulty.stalledNow() == 1, WAIT, "the claim to reach the store");
            assertThat(call.cancel(true)).isTrue();
        } finally {
            faulty.releaseStalled();
        }
        TestDatabase.await(() -> "failed_safe".equals(db.status("k:cancel-claiming")), WAIT, "the claim's release");
        assertThat(runs).as("runs of the body").hasValue(0);
        assertThat(valueOf(async.call(refund(), "k:cancel-claiming", PAYLOAD, String.class, null,
                body(runs, CompletableFuture.completedFuture("refund-1"))))).isEqualTo("refund-1");
    }

    @OnBothDatabases
    void aCancellationAfterTheEffectBoundaryIsUncertain(TestDatabase db) {
        AsyncToolCalls async = async(db.runtime());
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<OperationContext> attempt = new AtomicReference<>();
        CompletableFuture<String> downstream = new CompletableFuture<>();
        CompletableFuture<String> first = async.call(sendNotice(), "k:cancel-late", PAYLOAD, String.class, null, () -> {
            attempt.set(OperationContext.current());
            return body(runs, downstream).get();
        });
        TestDatabase.await(() -> attempt.get() != null, WAIT, "the body to start");
        attempt.get().effectStarting("mail-1");

        assertThat(first.cancel(true)).isTrue();

        TestDatabase.await(() -> "needs_reconciliation".equals(db.status("k:cancel-late")), WAIT,
                "the cancellation to be recorded");
        assertThat(downstream).as("the body's stage").isCancelled();
        CompletableFuture<String> retry = async.call(sendNotice(), "k:cancel-late", PAYLOAD, String.class, null,
                body(runs, CompletableFuture.completedFuture("sent twice")));
        assertThat(failureOf(retry)).isInstanceOf(NeedsReconciliationException.class);
        assertThat(runs).hasValue(1);
    }

    @OnBothDatabases
    void theLeaseIsRenewedWhileTheValueIsPending(TestDatabase db) throws Exception {
        AsyncToolCalls async = async(db.runtime());
        // A beat every 400 ms: a busy machine's pauses cannot make a healthy heartbeat miss a lease.
        Duration lease = Duration.ofMillis(1200);
        ToolPolicy tool = Policies.downstreamKey("refund", Retry.SAFE).lease(lease).build();
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> downstream = new CompletableFuture<>();
        CompletableFuture<String> call = async.call(tool, "k:slow", PAYLOAD, String.class, null,
                body(runs, downstream));
        TestDatabase.await(() -> runs.get() == 1, WAIT, "the body to start");

        // Claimed three leases ago and lease_until still ahead of the database's clock: renewed.
        TestDatabase.await(() -> db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ? AND"
                + " created_at < " + db.nowPlusMillis(-3 * lease.toMillis()) + " AND lease_until > CURRENT_TIMESTAMP",
                "k:slow") == 1, WAIT, "the value to be pending for three leases, its lease renewed");
        assertThat(call).isNotDone();
        assertThat(db.leaseExpired("k:slow")).isFalse();

        downstream.complete("refund-1");

        assertThat(valueOf(call)).isEqualTo("refund-1");
        assertThat(db.status("k:slow")).isEqualTo("completed");
    }

    @OnBothDatabases
    void theExecutorIsBoundedAndRefusesACallBeyondItsBoundBeforeClaiming(TestDatabase db) throws Exception {
        Engine engine = RuntimeAccess.engine(db.runtime());
        try (AsyncToolCalls async = new AsyncToolCalls(engine, new AsyncSettings(1, 2, null))) {
            AtomicInteger runs = new AtomicInteger();
            Set<String> threads = ConcurrentHashMap.newKeySet();
            CompletableFuture<String> downstream = new CompletableFuture<>();
            Supplier<CompletableFuture<String>> pendingBody = () -> {
                threads.add(Thread.currentThread().getName());
                return body(runs, downstream).get();
            };
            CompletableFuture<String> one = async.call(refund(), "k:bound-1", PAYLOAD, String.class, null,
                    pendingBody);
            CompletableFuture<String> two = async.call(refund(), "k:bound-2", PAYLOAD, String.class, null,
                    pendingBody);
            TestDatabase.await(() -> runs.get() == 2, WAIT, "both bodies to start");

            CompletableFuture<String> three = async.call(refund(), "k:bound-3", PAYLOAD, String.class, null,
                    body(runs, CompletableFuture.completedFuture("refund-3")));

            assertThat(failureOf(three)).isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("2 asynchronous tool calls pending")
                    .hasMessageContaining("the body did not run");
            assertThat(db.status("k:bound-3")).as("a claim of the refused call").isNull();
            assertThat(threads).as("the bodies' threads: never the runtime's own")
                    .allMatch(t -> t.startsWith(AsyncToolCalls.BODY_THREAD_NAME + "-"));
            downstream.complete("refund");
            assertThat(valueOf(one)).isEqualTo("refund");
            assertThat(valueOf(two)).isEqualTo("refund");
            CompletableFuture<String> four = async.call(refund(), "k:bound-4", PAYLOAD, String.class, null,
                    body(runs, CompletableFuture.completedFuture("refund-4")));
            assertThat(valueOf(four)).isEqualTo("refund-4");
            assertThat(runs).hasValue(3);
        }
    }
}
