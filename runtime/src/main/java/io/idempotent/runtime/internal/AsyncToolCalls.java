package io.idempotent.runtime.internal;

import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.CallAnswers;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolPolicy;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Runs tool calls whose body returns a {@code CompletionStage}: the protocol of
 * {@link Engine#begin} and {@link Invocation.Execution}, with no store call on the caller's thread
 * (which may be a reactive, non-blocking one). Not for application code: the agent's advice and
 * the generated bindings call {@link #call}.
 *
 * <p>Two kinds of thread, never shared. The runtime's own ({@value #THREAD_NAME}-N, a fixed
 * number) make the store calls: the claim, and the completion or failure when the body's stage
 * ends; no application code runs on them. The bodies (their synchronous part, after the claim,
 * with the caller's step) and the completion of the returned stage (whose dependents continue
 * there) run on threads that may block: the runtime's body threads ({@value #BODY_THREAD_NAME}-N,
 * created as calls need them and never more than two per pending call, so a body that waits for
 * another tool never waits for a thread), or the application's {@code Executor}. A call made from
 * a body that runs on the application's executor runs its own body on the runtime's body threads,
 * so that a nesting never waits for the executor its caller holds. The lease is renewed while the
 * body's stage is pending, by the heartbeat's own threads.
 *
 * <p>Bounded: at most {@code maxPending} calls from admission until their outcome is recorded. A
 * call beyond that fails closed at once: its stage fails with a retryable
 * {@link StoreUnavailableException}, nothing is claimed and the body does not run; when the call
 * came from another tool's body, the message names both tools. An admitted call queues at most two
 * store tasks at a time (its outcome from the body's stage and from a cancellation, of which the
 * first records it), so the queue never holds more than twice the admitted calls and no outcome of
 * a body that ran is refused a thread.
 *
 * <p>Cancelling the returned stage cancels the body's stage too, and ends the attempt as a
 * failure with a {@link CancellationException}: before the body started, the claim is released
 * (failed_safe); after, it is classified as any failure ({@link FailureClassification#failed}): safe before a
 * marked effect boundary, else uncertain.
 */
public final class AsyncToolCalls implements AutoCloseable {

    /** Default threads for the store work: the store's default pool size, since every such task is a store call. */
    public static final int THREADS = 8;
    /** Default bound of the calls admitted and not yet recorded; the next one fails closed. */
    public static final int MAX_PENDING = 1024;
    /** The runtime's store-work threads are named this, a dash and a number. */
    public static final String THREAD_NAME = "idempotent-async";
    /** The runtime's own body threads are named this, a dash and a number. */
    public static final String BODY_THREAD_NAME = "idempotent-async-body";

    /** Set on the application executor's thread while it runs a body (or an answer) of ours. */
    private static final ThreadLocal<Boolean> ON_APPLICATION_EXECUTOR = new ThreadLocal<>();

    private final Engine engine;
    private final int maxPending;
    private final Semaphore pending;
    private final ThreadPoolExecutor executor;
    /** The application's executor for bodies, or null. */
    private final Executor applicationBodies;
    private final ThreadPoolExecutor ownBodies;

    AsyncToolCalls(Engine engine, AsyncSettings settings) {
        this.engine = engine;
        this.maxPending = settings.maxPending();
        this.pending = new Semaphore(maxPending);
        // Unbounded queue, bounded by admission: at most two tasks per admitted call wait in it.
        this.executor = new ThreadPoolExecutor(settings.threads(), settings.threads(), 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), DaemonThreads.named(THREAD_NAME));
        executor.allowCoreThreadTimeOut(true);
        this.applicationBodies = settings.bodies();
        // A thread per task, up to two per pending call (the body, then the answer; or an answer
        // beside a cancelled body): never a queue, so a body never waits behind a blocked one.
        int most = (int) Math.min(Integer.MAX_VALUE, 2L * maxPending + 1);
        this.ownBodies = new ThreadPoolExecutor(0, most, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                DaemonThreads.named(BODY_THREAD_NAME));
    }

    /**
     * Calls a tool through its generated binding: the key (and so the thread's {@link Step}) and
     * the payload are taken now, on the caller's thread, without a store call.
     *
     * @param resultType the type of the stage's value, which is stored and replayed
     */
    public <T> CompletableFuture<T> call(ToolBinding binding, Object[] args, Type resultType,
            Supplier<? extends CompletionStage<? extends T>> body) {
        return call(binding.policy(), binding.key(args), binding.payload(args), resultType,
                ToolOwners.toolClassOf(binding), body);
    }

    /**
     * Calls a tool whose key was rendered by the caller. Never throws for the protocol's answers:
     * each (in progress, payload conflict, needs reconciliation, store unavailable, the body's own
     * failure) fails the returned stage with the exception a synchronous call would throw.
     *
     * @param resultType the type of the stage's value, which is stored and replayed
     * @param toolClass the class that declares the tool, or null for a policy of the caller's own
     * @param body invoked at most once, after the claim, on the runtime's executor
     * @return a stage that completes on the runtime's executor with the body's (or a replayed) value
     */
    public <T> CompletableFuture<T> call(ToolPolicy policy, String key, Map<String, ?> payload, Type resultType,
            Class<?> toolClass, Supplier<? extends CompletionStage<? extends T>> body) {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(resultType, "resultType");
        Objects.requireNonNull(body, "body");
        if (!pending.tryAcquire()) {
            AttemptContext caller = CurrentAttempt.current();
            String from = caller == null ? "" : " (called from the body of tool " + caller.policy().name() + ", key "
                    + caller.key() + ")";
            return CompletableFuture.failedFuture(new StoreUnavailableException(policy.name(), key, "the runtime"
                    + from + " already has " + maxPending + " asynchronous tool calls pending, its bound"
                    + " (async.max.pending); nothing was claimed and the body did not run", "Retry the call later with"
                    + " the same key" + (caller == null ? "" : ", or raise async.max.pending above the calls that"
                    + " nested tools keep pending at once"), null));
        }
        Call<T> call = new Call<>(policy, key, payload, resultType, toolClass, body, bodiesForThisCaller());
        // The step is the caller's, taken now: the claim and the body's synchronous part see it.
        // So is an adapter's recording of how the call was answered (decided in the claim).
        if (!submit(CallAnswers.carry(Step.wrap(call::claim)))) {
            call.answerFailure(closed(policy.name(), key, "nothing was claimed and the body did"
                    + " not run"));
        }
        return call.returned;
    }

    /**
     * Where the body of a call made on this thread runs: the application's executor, unless this
     * thread is one of its own running a body of ours (the nested body could wait for the very
     * thread its caller holds), or there is none: then the runtime's body threads.
     */
    private Executor bodiesForThisCaller() {
        if (applicationBodies == null || ON_APPLICATION_EXECUTOR.get() != null) {
            return ownBodies;
        }
        return task -> applicationBodies.execute(() -> {
            ON_APPLICATION_EXECUTOR.set(Boolean.TRUE);
            try {
                task.run();
            } finally {
                ON_APPLICATION_EXECUTOR.remove();
            }
        });
    }

    private boolean submit(Runnable task) {
        try {
            executor.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    private static StoreConfigurationException closed(String tool, String key, String what) {
        return new StoreConfigurationException(tool, key, "this IdempotentRuntime was closed; " + what,
                "Build a new runtime (and IdempotentRuntime.setGlobal it, if the agent uses it)", null);
    }

    /**
     * Runs the calls already queued, then stops: their stages fail on the closed engine. Bodies
     * already running go on; their answers are still delivered.
     */
    @Override
    public void close() {
        executor.shutdown();
        ownBodies.shutdown();
    }

    /** What a stage's failure was, without the wrapper a dependent stage adds. */
    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /** One call, from its admission until its outcome is recorded. */
    private final class Call<T> {
        private final ToolPolicy policy;
        private final String key;
        private final Map<String, ?> payload;
        private final Type resultType;
        private final Class<?> toolClass;
        private final Supplier<? extends CompletionStage<? extends T>> body;
        /** Where the body and the returned stage's completion run. */
        private final Executor bodies;
        private final CompletableFuture<T> returned = new Returned();
        /** Set once: whoever sets it records the attempt's outcome (the body's stage, or a cancellation). */
        private final AtomicBoolean settled = new AtomicBoolean();
        private final AtomicBoolean finished = new AtomicBoolean();
        /** Guarded by this: the attempt once claimed, the body's stage once it returned one. */
        private Invocation.Execution execution;
        private boolean bodyStarted;
        private CompletionStage<? extends T> bodyStage;

        Call(ToolPolicy policy, String key, Map<String, ?> payload, Type resultType, Class<?> toolClass,
                Supplier<? extends CompletionStage<? extends T>> body, Executor bodies) {
            this.bodies = bodies;
            this.policy = policy;
            this.key = key;
            this.payload = payload;
            this.resultType = resultType;
            this.toolClass = toolClass;
            this.body = body;
        }

        /** The stage the caller gets; cancelling it cancels the call. */
        private final class Returned extends CompletableFuture<T> {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                boolean cancelled = super.cancel(mayInterruptIfRunning);
                if (cancelled) {
                    cancelled();
                }
                return cancelled;
            }
        }

        /** On the runtime's thread: claims, then answers, or hands the body to a body thread. */
        @SuppressWarnings("unchecked")
        void claim() {
            if (returned.isCancelled()) {
                finish(); // cancelled while queued: nothing to claim, nothing to release
                return;
            }
            Invocation invocation;
            try {
                TransactionalCalls.refuseAsynchronous(policy, key);
                invocation = engine.begin(policy, key, payload, resultType, toolClass);
            } catch (Throwable refused) {
                answerFailure(refused);
                return;
            }
            if (invocation instanceof Invocation.Replay replay) {
                answer((T) replay.result());
                return;
            }
            Invocation.Execution owned = (Invocation.Execution) invocation;
            // The claim put the attempt on this thread; the body's thread takes it.
            owned.detach();
            boolean start;
            synchronized (this) {
                execution = owned;
                start = !returned.isCancelled();
            }
            if (!start) {
                releaseCancelled(owned);
                return;
            }
            try {
                bodies.execute(Step.wrap(() -> runBody(owned)));
            } catch (RejectedExecutionException refused) {
                // The application's executor refused the body: it never ran, the claim is released.
                StoreUnavailableException why = new StoreUnavailableException(policy.name(), key, "the executor of"
                        + " asynchronous tool bodies refused this body (" + refused.getClass().getName() + "); the"
                        + " claim was released and the body did not run", "Retry the call later with the same key,"
                        + " or give the runtime an executor that accepts its bodies (asyncBodies)", null);
                settle(() -> {
                    try {
                        owned.released(why);
                    } catch (Throwable unexpected) {
                        why.addSuppressed(unexpected);
                    }
                    answerFailure(why);
                });
            }
        }

        /** The call was cancelled before its body started: the claim is released (the body never ran). */
        private void releaseCancelled(Invocation.Execution owned) {
            settle(() -> owned.released(new CancellationException("the call was cancelled before its body"
                    + " started")));
        }

        /** On a body thread: runs the body's synchronous part with the attempt current. */
        private void runBody(Invocation.Execution owned) {
            boolean start;
            synchronized (this) {
                // A cancellation while the body waited for its thread finds it not started.
                start = !returned.isCancelled();
                bodyStarted = start;
            }
            if (!start) {
                if (!submit(() -> releaseCancelled(owned))) {
                    abandonOnClosedRuntime(owned);
                }
                return;
            }
            CompletionStage<? extends T> stage;
            owned.attach();
            try {
                stage = body.get();
                if (stage == null) {
                    throw new NullPointerException("the body of tool " + policy.name() + " returned null instead"
                            + " of a CompletionStage");
                }
            } catch (Throwable thrown) {
                owned.detach();
                ended(owned, null, thrown);
                return;
            }
            owned.detach();
            boolean cancelBody;
            synchronized (this) {
                bodyStage = stage;
                cancelBody = returned.isCancelled();
            }
            if (cancelBody) {
                cancel(stage);
            }
            stage.whenComplete((value, failure) -> ended(owned, value, failure));
        }

        /** The body ended, on any thread: its outcome is written from the runtime's own. */
        private void ended(Invocation.Execution owned, T value, Throwable failure) {
            if (!settled.get() && !submit(() -> bodyEnded(value, failure))) {
                abandonOnClosedRuntime(owned);
            }
        }

        /** On the executor: the body's stage ended; records its outcome unless a cancellation did. */
        @SuppressWarnings("unchecked")
        private void bodyEnded(T value, Throwable failure) {
            Invocation.Execution owned = execution;
            if (failure == null) {
                settle(() -> {
                    T result;
                    try {
                        result = (T) owned.succeeded(value);
                    } catch (Throwable notStored) {
                        answerFailure(notStored);
                        return;
                    }
                    answer(result);
                });
            } else {
                Throwable cause = unwrap(failure);
                settle(() -> {
                    try {
                        owned.failed(cause);
                    } catch (Throwable unexpected) {
                        cause.addSuppressed(unexpected);
                    }
                    answerFailure(cause);
                });
            }
        }

        /** On the caller's thread: the returned stage was cancelled. */
        private void cancelled() {
            Invocation.Execution owned;
            CompletionStage<? extends T> stage;
            boolean started;
            synchronized (this) {
                owned = execution;
                stage = bodyStage;
                started = bodyStarted;
            }
            if (stage != null) {
                cancel(stage);
            }
            if (owned == null || !started) {
                return; // the claim, or the body thread before the body starts, sees it and releases
            }
            CancellationException why = new CancellationException("the call was cancelled after its body started");
            if (!settled.get() && !submit(() -> settle(() -> owned.failed(why)))) {
                abandonOnClosedRuntime(owned);
            }
        }

        private void cancel(CompletionStage<? extends T> stage) {
            try {
                stage.toCompletableFuture().cancel(false);
            } catch (UnsupportedOperationException notCancellable) {
                // A stage that cannot be cancelled runs on; its outcome no longer decides the record.
            }
        }

        /** Runs {@code record} if no other outcome was recorded first. */
        private void settle(Runnable record) {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            try {
                record.run();
            } finally {
                finish();
            }
        }

        /**
         * The runtime closed while the body's stage was pending: its outcome cannot be written.
         * The record keeps its lease until it expires and then follows the expiry rules, as a
         * worker that died would.
         */
        private void abandonOnClosedRuntime(Invocation.Execution owned) {
            settle(() -> {
                owned.abandon();
                answerFailure(closed(policy.name(), key, "the outcome of the body was not"
                        + " recorded; the operation is settled when its lease expires"));
            });
        }

        /**
         * Completes the returned stage; the call's place is given back first, so that a caller
         * who sees its stage complete can make its next call within the bound.
         */
        private void answer(T value) {
            finish();
            deliver(() -> returned.complete(value));
        }

        private void answerFailure(Throwable failure) {
            finish();
            deliver(() -> returned.completeExceptionally(failure));
        }

        /**
         * Completes the returned stage where the application's code may block (its dependents
         * run on the completing thread), never on the runtime's own threads; on this thread only
         * when that executor refuses.
         */
        private void deliver(Runnable completion) {
            try {
                bodies.execute(completion);
            } catch (RejectedExecutionException refused) {
                completion.run();
            }
        }

        private void finish() {
            if (finished.compareAndSet(false, true)) {
                pending.release();
            }
        }
    }
}
