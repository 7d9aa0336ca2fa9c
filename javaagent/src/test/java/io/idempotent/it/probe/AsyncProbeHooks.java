package io.idempotent.it.probe;

import io.idempotent.runtime.OperationContext;
import java.net.ConnectException;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the next bodies of {@link AsyncProbeTools} do, in order (then {@link Mode#COMPLETE}), and
 * the downstream stage of each body that started, for the probe's main thread to complete or watch.
 */
final class AsyncProbeHooks {

    /** What one body does. */
    enum Mode {
        /** Marks the effect boundary, records the effect, answers at once. */
        COMPLETE,
        /** Fails with a ConnectException before the effect boundary: nothing happened downstream. */
        REFUSED,
        /** Returns a stage still pending, before the effect boundary and without an effect. */
        PENDING_BEFORE_EFFECT,
        /** Marks the effect boundary, records the effect and returns a stage still pending. */
        PENDING_AFTER_EFFECT
    }

    private static final Queue<Mode> NEXT = new ConcurrentLinkedQueue<>();
    private static final LinkedBlockingQueue<CompletableFuture<String>> STARTED = new LinkedBlockingQueue<>();
    static final AtomicInteger RUNS = new AtomicInteger();
    /** The thread the last body ran on. */
    static volatile String bodyThread = "none";
    private static final java.util.concurrent.atomic.AtomicBoolean NEST_ONCE = new java.util.concurrent.atomic.AtomicBoolean();
    private static final CompletableFuture<CompletableFuture<String>> NESTED = new CompletableFuture<>();

    private AsyncProbeHooks() {
    }

    /** The next body calls its own tool again, once, before it does what its mode says. */
    static void nestOnce() {
        NEST_ONCE.set(true);
    }

    static boolean takeNestOnce() {
        return NEST_ONCE.getAndSet(false);
    }

    static void nested(CompletableFuture<String> call) {
        NESTED.complete(call);
    }

    /** The stage of the nested call (waits for it, with a deadline). */
    static CompletableFuture<String> awaitNested() throws Exception {
        return NESTED.get(60, TimeUnit.SECONDS);
    }

    static void next(Mode... modes) {
        NEXT.addAll(java.util.List.of(modes));
    }

    /** The downstream stage of the next body that starts (waits for it, with a deadline). */
    static CompletableFuture<String> awaitStarted() throws InterruptedException {
        CompletableFuture<String> started = STARTED.poll(60, TimeUnit.SECONDS);
        if (started == null) {
            throw new IllegalStateException("no body started within 60 s");
        }
        return started;
    }

    static CompletableFuture<String> body(String effect, OperationContext attempt) {
        RUNS.incrementAndGet();
        bodyThread = Thread.currentThread().getName();
        Mode mode = NEXT.poll();
        mode = mode == null ? Mode.COMPLETE : mode;
        String result = effect + " by pid " + ProcessHandle.current().pid() + " on " + Thread.currentThread().getName();
        CompletableFuture<String> downstream = new CompletableFuture<>();
        switch (mode) {
            case COMPLETE -> {
                attempt.effectStarting(effect);
                ProbeTools.recordEffect(effect);
                downstream.complete(result);
            }
            case REFUSED -> downstream.completeExceptionally(new ConnectException("connection refused"));
            case PENDING_BEFORE_EFFECT -> {
            }
            case PENDING_AFTER_EFFECT -> {
                attempt.effectStarting(effect);
                ProbeTools.recordEffect(effect);
            }
        }
        STARTED.add(downstream);
        return downstream;
    }
}
