package io.idempotent.test;

import io.idempotent.runtime.internal.SimulatedWorkerDeath;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The network faults of one case: one armed fault, struck by the next downstream call that passes
 * a {@link Faults} injection point, and an optional hold of the next request (the concurrency
 * test keeps the winner inside its call until every other caller was answered).
 */
final class FaultPlan {

    private static final Duration HOLD_DEADLINE = Duration.ofSeconds(10);

    private final AtomicReference<Fault> armed = new AtomicReference<>(Fault.NONE);
    private final AtomicInteger struck = new AtomicInteger();
    private final AtomicInteger passed = new AtomicInteger();
    private volatile CountDownLatch hold;
    private final AtomicBoolean holdTaken = new AtomicBoolean();
    private volatile Thread holder;

    void arm(Fault fault) {
        armed.set(fault);
    }

    void disarm() {
        armed.set(Fault.NONE);
    }

    /** How many injected faults struck. */
    int struck() {
        return struck.get();
    }

    /** How many downstream calls passed an injection point. */
    int passed() {
        return passed.get();
    }

    /** The next request waits (up to a deadline) until {@code release} opens. */
    void holdNextRequest(CountDownLatch release) {
        holdTaken.set(false);
        holder = null;
        hold = release;
    }

    /** The thread whose request is held, or null. */
    Thread holder() {
        return holder;
    }

    /** Before a request leaves the caller: may hold it, or fail it so it never reaches the downstream. */
    void beforeSend(String target, boolean jdkHttpClient) throws IOException {
        passed.incrementAndGet();
        CountDownLatch release = hold;
        if (release != null && holdTaken.compareAndSet(false, true)) {
            holder = Thread.currentThread();
            try {
                // If nobody else is answered in time, the request goes on: the counts will show why.
                release.await(HOLD_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Fault fault = armed.get();
        if (fault.side() == Fault.Side.BEFORE_SEND && armed.compareAndSet(fault, Fault.NONE)) {
            struck.incrementAndGet();
            throw fault.transportFailure(target, jdkHttpClient);
        }
    }

    /** After the downstream committed and answered: may lose the reply, or let the worker die. */
    void afterCommit(String target, boolean jdkHttpClient) throws IOException {
        Fault fault = armed.get();
        if (fault.side() != Fault.Side.AFTER_COMMIT || !armed.compareAndSet(fault, Fault.NONE)) {
            return;
        }
        struck.incrementAndGet();
        if (fault == Fault.WORKER_DIES_AFTER_COMMIT) {
            throw new SimulatedWorkerDeath("after " + target + " committed");
        }
        throw fault.transportFailure(target, jdkHttpClient);
    }
}
