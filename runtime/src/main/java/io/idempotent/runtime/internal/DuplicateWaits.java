package io.idempotent.runtime.internal;

import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * How a duplicate that finds its operation in progress (another attempt holds a live lease) may
 * wait for that attempt's outcome, instead of being answered {@code in progress} at once: a
 * bounded poll on the operation's row, the same on PostgreSQL and H2, read by the store's own
 * {@code find}. The waiter never runs the body: it ends with the row's final state (answered by
 * the engine as a replay or the original's classified failure), or, when the bound passes, the
 * lease lapses (the original's worker stopped renewing it), or the row changes in any other way,
 * with nothing, and the engine answers in progress as without waiting.
 *
 * <p>Never on a thread that must not block: a Reactor non-blocking thread (a thread whose class
 * implements {@code reactor.core.scheduler.NonBlocking}) or the runtime's own store threads of
 * asynchronous calls ({@value AsyncToolCalls#THREAD_NAME}-N): a duplicate there is answered at
 * once. Off ({@link Duration#ZERO}) by default: a waiting duplicate holds its thread, which a
 * server's request pool must be sized for.
 */
final class DuplicateWaits {

    /** The first pause between two reads of the row; each next pause doubles, up to {@link #LONGEST_PAUSE}. */
    private static final Duration FIRST_PAUSE = Duration.ofMillis(10);
    /** The longest pause between two reads: what an answer may lag behind the original's completion. */
    private static final Duration LONGEST_PAUSE = Duration.ofMillis(200);

    /** No waiting: every in-flight duplicate is answered in progress at once. */
    static final DuplicateWaits OFF = new DuplicateWaits(Duration.ZERO);

    private final Duration bound;

    /** Waits of at most {@code bound} ({@link Duration#ZERO}: none). */
    DuplicateWaits(Duration bound) {
        Objects.requireNonNull(bound, "bound");
        if (bound.isNegative()) {
            throw new IllegalArgumentException("duplicateWait must not be negative, was " + bound);
        }
        this.bound = bound;
    }

    /** The bound of one wait. */
    Duration bound() {
        return bound;
    }

    /**
     * Waits, at most the bound, for the attempt on {@code seen} (an in-progress row whose lease is
     * live) to end. Returns the row once it is completed, failed safe or awaiting reconciliation
     * under the same payload; empty when waiting is off or not allowed on this thread, the bound
     * passed, the lease lapsed, the row vanished or changed otherwise, or the store failed a read.
     * Counted in {@link MetricsListener#duplicateWaited} unless no wait began.
     */
    Optional<StoredOperation> awaitEnd(OperationStore store, StoredOperation seen, MetricsListener metrics) {
        if (bound.isZero() || !mayBlockHere()) {
            return Optional.empty();
        }
        long start = System.nanoTime();
        long deadline = start + bound.toNanos();
        Optional<StoredOperation> ended = poll(store, seen, deadline);
        metrics.duplicateWaited(seen.tool(), Duration.ofNanos(System.nanoTime() - start), ended.isPresent());
        return ended;
    }

    private static Optional<StoredOperation> poll(OperationStore store, StoredOperation seen, long deadline) {
        long pause = FIRST_PAUSE.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return Optional.empty();
            }
            LockSupport.parkNanos(Math.min(pause, left));
            if (Thread.currentThread().isInterrupted()) {
                return Optional.empty(); // the caller's thread is being stopped: answer in progress now
            }
            pause = Math.min(pause * 2, LONGEST_PAUSE.toNanos());
            Optional<StoredOperation> row;
            try {
                row = store.find(seen.tool(), seen.key());
            } catch (StoreUnavailableException | StoreConfigurationException e) {
                return Optional.empty(); // the wait is a courtesy: a store failure answers in progress, as before
            }
            if (row.isEmpty() || !row.get().payloadHash().equals(seen.payloadHash())) {
                return Optional.empty();
            }
            OperationStatus status = row.get().status();
            if (status == OperationStatus.COMPLETED || status == OperationStatus.FAILED_SAFE
                    || status == OperationStatus.NEEDS_RECONCILIATION) {
                return row;
            }
            if (status != OperationStatus.IN_PROGRESS || row.get().leaseExpired()) {
                // The original's worker stopped renewing its lease (or the row moved elsewhere): the
                // waiter does not take it over; the next call decides as usual.
                return Optional.empty();
            }
        }
    }

    /** Whether this thread may block for a wait (see the class comment). */
    static boolean mayBlockHere() {
        Thread thread = Thread.currentThread();
        if (thread.getName().startsWith(AsyncToolCalls.THREAD_NAME + "-")
                && !thread.getName().startsWith(AsyncToolCalls.BODY_THREAD_NAME)) {
            return false;
        }
        for (Class<?> c = thread.getClass(); c != null; c = c.getSuperclass()) {
            for (Class<?> i : c.getInterfaces()) {
                if (i.getName().equals("reactor.core.scheduler.NonBlocking")) {
                    return false;
                }
            }
        }
        return true;
    }
}
