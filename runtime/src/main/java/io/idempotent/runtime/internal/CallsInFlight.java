package io.idempotent.runtime.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The calls an engine is deciding (from the claim to the answer written or queued), so that
 * closing waits for them before the answer logs are drained and the pools closed. Once closed,
 * no call enters: it is refused instead of answering from a store that is going away.
 */
final class CallsInFlight {

    // One counter the callers increment and decrement: a call already costs a database round
    // trip, beside which this is noise, and an exact count is what close() may trust.
    private final AtomicInteger count = new AtomicInteger();
    private volatile boolean closed;
    private volatile Thread closer;

    /** Enters a call; false when closing has begun, and the call must be refused. */
    boolean enter() {
        count.incrementAndGet();
        if (closed) {
            // close() may already have seen this increment: leave, waking it if it was the last.
            exit();
            return false;
        }
        return true;
    }

    /** Leaves a call that {@link #enter()} let in. */
    void exit() {
        if (count.decrementAndGet() == 0 && closed) {
            Thread t = closer;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /**
     * Refuses new calls and waits until none is in flight, at most {@code timeout}; returns how
     * many still were when it stopped waiting.
     */
    int close(Duration timeout) {
        closer = Thread.currentThread();
        closed = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int n = count.get(); n > 0; n = count.get()) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                return n;
            }
            LockSupport.parkNanos(this, left);
        }
        return 0;
    }
}
