package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.ValueRejectedException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The answers that changed nothing (a replay, a payload conflict, "in progress", a refusal),
 * written to the attempt log in batches by one background thread, so that such a call costs
 * only its read. Every other row of the log (a claim's start, a completion, a failure, a
 * settlement, a lease expiry) is written with its change, never here.
 *
 * <p>Memory is bounded: at most {@link AnswerLogLimits#queueSize()} answers are held (the batch
 * being written included); a call that finds the queue full writes its answer itself, so a
 * stalled store slows its callers instead of filling the heap.
 *
 * <p>{@link #close()} writes what is queued, trying again until
 * {@link AnswerLogLimits#closeTimeout()} when the store fails, and logs once how many answers it
 * could not write (a count and tool names). After it, {@link #add} refuses, and the caller
 * writes its own answer.
 *
 * <p>The thread never dies: a batch the database refuses for good ({@link ValueRejectedException},
 * a value no repeat changes) is split in halves until the refused rows are found; each is logged
 * by its tool and key (never its detail) and counted ({@link #onRefusedRow}), and the rest are
 * written. Any other failure is tried again after a pause, as a store that does not answer is.
 *
 * <p>What a crash can lose: the answers queued and not yet written when the JVM dies without
 * closing its runtime (killed, halted, out of memory; the agent's runtime is closed by a
 * shutdown hook on a normal exit, a runtime the application built is closed by the application),
 * at most the queue's size, usually the last few milliseconds' worth. A record's claim,
 * completion, failure or settlement is never among them: those are committed before their call
 * returns. The store's own reads of the log ({@link #flush()} first) see every answer given.
 */
final class AnswerLog implements AutoCloseable {

    /** The outcomes that may be written late. */
    static final Set<AttemptOutcome> DEFERRED = EnumSet.of(AttemptOutcome.REPLAYED, AttemptOutcome.PAYLOAD_CONFLICT,
            AttemptOutcome.IN_PROGRESS, AttemptOutcome.NOT_REPLAYABLE, AttemptOutcome.REFUSED,
            AttemptOutcome.AWAITING_APPROVAL, AttemptOutcome.DENIED);

    private static final int BATCH = 500;
    /** How many tool names the close's log line lists at most. */
    private static final int TOOLS_NAMED = 5;
    private static final System.Logger LOG = System.getLogger(AnswerLog.class.getName());

    /**
     * How the writer paces itself while the store fails: the pause before it tries a failed batch
     * again, how often at most it logs that writes still fail, and the clock it reads the time on
     * (injectable, so a test counts the lines without waiting for real time to pass).
     */
    record Pacing(Duration retryPause, Duration warningEvery, LongSupplier nanoClock) {

        /** A pause of 200 ms, a warning a minute at most, the JVM's clock. */
        static final Pacing DEFAULT = new Pacing(Duration.ofMillis(200), Duration.ofMinutes(1), System::nanoTime);
    }

    /** Writes a batch of answer rows in one statement. */
    interface Writer {
        void write(List<AttemptRow> rows);
    }

    private final String store;
    private final Writer writer;
    private final int capacity;
    private final Duration closeTimeout;
    private final long retryNanos;
    private final FailedWriteWarnings warnings;
    // A caller's answer costs a queue insertion and, only when the writer sleeps, one wake-up: no
    // lock that sixteen callers would queue on (a monitor here made callers wait for each other
    // and for the writer, which cost more than the answer's own read).
    private final ConcurrentLinkedDeque<AttemptRow> queue = new ConcurrentLinkedDeque<>();
    /** Answers held: queued, or in the batch being written. Never above {@link #capacity}. */
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean writerAsleep = new AtomicBoolean();
    /** Held while a batch is written; close() waits for it only until its deadline. */
    private final ReentrantLock writing = new ReentrantLock();
    private volatile Thread thread;
    private volatile boolean closed;
    /** Told the tool of each row the database refused for good (the metrics' count). */
    private volatile Consumer<String> refusedRows = tool -> { };

    AnswerLog(String store, Writer writer) {
        this(store, writer, AnswerLogLimits.DEFAULT);
    }

    AnswerLog(String store, Writer writer, AnswerLogLimits limits) {
        this(store, writer, limits, Pacing.DEFAULT);
    }

    AnswerLog(String store, Writer writer, AnswerLogLimits limits, Pacing pacing) {
        this.store = store;
        this.retryNanos = pacing.retryPause().toNanos();
        this.warnings = new FailedWriteWarnings(store, pacing.warningEvery(), pacing.nanoClock());
        this.writer = writer;
        this.capacity = limits.queueSize();
        this.closeTimeout = limits.closeTimeout();
    }

    /** Queues {@code row}; false when the queue is full or closed, and the caller must write it. */
    boolean add(AttemptRow row) {
        if (closed || !reserve()) {
            return false;
        }
        queue.addLast(row);
        if (closed && queue.removeLastOccurrence(row)) {
            // close() may have written the queue already: the caller writes this one itself.
            queued.decrementAndGet();
            return false;
        }
        Thread t = thread;
        if (t == null) {
            t = startWriter();
        }
        if (writerAsleep.compareAndSet(true, false)) {
            LockSupport.unpark(t);
        }
        return true;
    }

    /** Takes a place in the queue, if one is free: the count never passes the capacity, even for a moment. */
    private boolean reserve() {
        for (int n = queued.get(); n < capacity; n = queued.get()) {
            if (queued.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /** How many answers are held now (queued or being written): the gauge of the bound. */
    int queued() {
        return queued.get();
    }

    /** Tells {@code perTool} the tool of each row the database refuses for good, which is not written. */
    void onRefusedRow(Consumer<String> perTool) {
        this.refusedRows = perTool;
    }

    /** How long {@link #close()} tries to write what is queued. */
    Duration closeTimeout() {
        return closeTimeout;
    }

    private synchronized Thread startWriter() {
        if (thread == null) {
            Thread t = new Thread(this::run, "idempotent-attempt-log-" + store);
            t.setDaemon(true);
            thread = t;
            t.start();
        }
        return thread;
    }

    /** Writes everything queued so far before it returns (the thread's batch in flight included). */
    void flush() {
        writing.lock();
        try {
            while (writeBatch()) {
                // until the queue is empty
            }
        } finally {
            writing.unlock();
        }
    }

    private void run() {
        while (true) {
            if (queue.isEmpty()) {
                if (closed) {
                    return;
                }
                writerAsleep.set(true);
                // An answer queued between the check and the flag found no sleeper to wake: look again.
                if (queue.isEmpty() && !closed) {
                    LockSupport.park(this);
                }
                writerAsleep.set(false);
                if (Thread.interrupted()) {
                    return;
                }
                continue;
            }
            try {
                flush();
            } catch (StoreUnavailableException | StoreConfigurationException e) {
                if (closed) {
                    // close() wrote what it could and reported the rest; a closed store's
                    // connections do not come back, so trying again would never end.
                    return;
                }
                // What happened, without the advice to retry the call: the call was answered.
                warnings.failed(queued.get(), this::toolsQueued, e.happened());
                if (pause()) {
                    return;
                }
            } catch (RuntimeException | Error e) {
                // Whatever it is (a driver's bug, a full heap for a moment), the answers stay
                // queued and the thread lives to try again: a dead writer would leave every later
                // answer of this JVM unwritten.
                if (closed) {
                    return;
                }
                warnings.failed(queued.get(), this::toolsQueued, e.getClass().getName());
                if (pause()) {
                    return;
                }
            }
        }
    }

    /** Waits before the next try; true when the thread was interrupted and must end. */
    private boolean pause() {
        LockSupport.parkNanos(this, retryNanos);
        return Thread.interrupted();
    }

    /**
     * Writes one batch under {@link #writing}; false when there was nothing to write. A part the
     * database refuses for good is halved until the refused rows are found, which are reported
     * and dropped; the others are written. On any other failure the rows not yet written go back
     * to the head of the queue, in order, and the failure is thrown.
     */
    private boolean writeBatch() {
        List<AttemptRow> batch = new ArrayList<>();
        for (AttemptRow row; batch.size() < BATCH && (row = queue.pollFirst()) != null; ) {
            batch.add(row);
        }
        if (batch.isEmpty()) {
            return false;
        }
        Deque<List<AttemptRow>> parts = new ArrayDeque<>();
        parts.add(batch);
        try {
            while (!parts.isEmpty()) {
                List<AttemptRow> part = parts.peekFirst();
                try {
                    writer.write(part);
                } catch (ValueRejectedException e) {
                    parts.removeFirst();
                    if (part.size() == 1) {
                        refused(part.get(0), e);
                        queued.decrementAndGet();
                    } else {
                        parts.addFirst(part.subList(part.size() / 2, part.size()));
                        parts.addFirst(part.subList(0, part.size() / 2));
                    }
                    continue;
                }
                parts.removeFirst();
                queued.addAndGet(-part.size());
            }
            // Under the write lock, so a flush() that follows finds the line already written.
            warnings.succeeded();
        } catch (RuntimeException e) {
            List<AttemptRow> unwritten = new ArrayList<>();
            parts.forEach(unwritten::addAll);
            for (int i = unwritten.size() - 1; i >= 0; i--) {
                queue.addFirst(unwritten.get(i));
            }
            throw e;
        }
        return true;
    }

    /** A row the database refuses for good: said by its tool, key and outcome, never its detail; counted. */
    private void refused(AttemptRow row, ValueRejectedException e) {
        LOG.log(System.Logger.Level.WARNING, "store {0}: the database refused an answer for the attempt log for"
                + " good, so it is not written (tool {1}, key {2}, outcome {3}); the call was answered, and the other"
                + " answers are written: {4}", store, row.tool(), row.key(), row.outcome(), e.happened());
        try {
            refusedRows.accept(row.tool());
        } catch (RuntimeException listenerFailed) {
            // A metrics listener's failure must not stop the writer.
            LOG.log(System.Logger.Level.WARNING, "store {0}: a metrics listener failed on a refused answer: {1}",
                    store, listenerFailed.getClass().getName());
        }
    }

    /**
     * Writes what is queued and stops the thread; later answers are written by their callers.
     * Tries until the close timeout (plus the write in progress then); what it could not write
     * is counted in one ERROR line, with the tools' names, never a payload.
     */
    @Override
    public void close() {
        closed = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
        long deadline = System.nanoTime() + closeTimeout.toNanos();
        String failure = "the close timeout (" + closeTimeout + ") passed";
        while (true) {
            try {
                if (drain(deadline)) {
                    return;
                }
            } catch (RuntimeException e) {
                // What happened, without the advice to retry the call: the call was answered.
                failure = e instanceof IdempotencyException known ? known.happened() : e.getClass().getName();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                break;
            }
            LockSupport.parkNanos(this, Math.min(retryNanos, left));
        }
        int lost = queued.get();
        if (lost > 0) {
            LOG.log(System.Logger.Level.ERROR, "store {0}: could not write {1} answers to the attempt log before the"
                    + " store closed (tools: {2}); those calls got their answers but the log lacks their rows: {3}",
                    store, lost, toolsQueued(), failure);
        }
    }

    /**
     * Writes batches until the queue is empty (true) or {@code deadline} passes (false), waiting
     * for the background thread's batch in flight only until then.
     */
    private boolean drain(long deadline) {
        try {
            if (!writing.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            while (writeBatch()) {
                if (System.nanoTime() - deadline > 0) {
                    return queue.isEmpty();
                }
            }
            return true;
        } finally {
            writing.unlock();
        }
    }

    /** The names of the tools whose answers are still queued, a few at most. */
    private String toolsQueued() {
        Set<String> tools = new TreeSet<>();
        for (AttemptRow row : queue) {
            tools.add(row.tool());
        }
        List<String> named = new ArrayList<>(tools).subList(0, Math.min(TOOLS_NAMED, tools.size()));
        return String.join(", ", named) + (tools.size() > TOOLS_NAMED ? " and " + (tools.size() - TOOLS_NAMED)
                + " more" : "");
    }
}
