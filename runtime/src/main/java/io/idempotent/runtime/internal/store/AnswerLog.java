package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The answers that changed nothing (a replay, a payload conflict, "in progress", a refusal),
 * written to the attempt log in batches by one background thread, so that such a call costs
 * only its read. Every other row of the log (a claim's start, a completion, a failure, a
 * settlement, a lease expiry) is written with its change, never here.
 *
 * <p>What a crash can lose: the answers queued and not yet written when the JVM dies, at most
 * {@link #CAPACITY} rows, usually the last few milliseconds' worth. A record's claim, completion,
 * failure or settlement is never among them: those are committed before their call returns. The store's own reads of the log
 * ({@link #flush()} first) and its close write what is queued. When the queue is full the
 * caller writes its answer itself.
 */
final class AnswerLog implements AutoCloseable {

    /** The outcomes that may be written late. */
    static final Set<AttemptOutcome> DEFERRED = EnumSet.of(AttemptOutcome.REPLAYED, AttemptOutcome.PAYLOAD_CONFLICT,
            AttemptOutcome.IN_PROGRESS, AttemptOutcome.NOT_REPLAYABLE, AttemptOutcome.REFUSED);

    /** Answers held in memory at most; beyond that a caller writes its own. */
    static final int CAPACITY = 10_000;
    private static final int BATCH = 500;
    private static final long RETRY_NANOS = 200_000_000L;
    private static final System.Logger LOG = System.getLogger(AnswerLog.class.getName());

    /** Writes a batch of answer rows in one statement. */
    interface Writer {
        void write(List<AttemptRow> rows);
    }

    private final String store;
    private final Writer writer;
    // A caller's answer costs a queue insertion and, only when the writer sleeps, one wake-up: no
    // lock that sixteen callers would queue on (a monitor here made callers wait for each other
    // and for the writer, which cost more than the answer's own read).
    private final ConcurrentLinkedDeque<AttemptRow> queue = new ConcurrentLinkedDeque<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean writerAsleep = new AtomicBoolean();
    private final Object writing = new Object();
    private volatile Thread thread;
    private volatile boolean closed;

    AnswerLog(String store, Writer writer) {
        this.store = store;
        this.writer = writer;
    }

    /** Queues {@code row}; false when the queue is full or closed, and the caller must write it. */
    boolean add(AttemptRow row) {
        if (closed) {
            return false;
        }
        if (queued.incrementAndGet() > CAPACITY) {
            queued.decrementAndGet();
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
        synchronized (writing) {
            while (writeBatch()) {
                // until the queue is empty
            }
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
                LOG.log(System.Logger.Level.WARNING, "store {0}: could not write {1} answers to the attempt log"
                        + " (they stay queued and are tried again): {2}", store, queued.get(), e.getMessage());
                LockSupport.parkNanos(this, RETRY_NANOS);
                if (Thread.interrupted()) {
                    return;
                }
            }
        }
    }

    /** Writes one batch under {@link #writing}; false when there was nothing to write. */
    private boolean writeBatch() {
        List<AttemptRow> batch = new ArrayList<>();
        for (AttemptRow row; batch.size() < BATCH && (row = queue.pollFirst()) != null; ) {
            batch.add(row);
        }
        if (batch.isEmpty()) {
            return false;
        }
        try {
            writer.write(batch);
        } catch (RuntimeException e) {
            for (int i = batch.size() - 1; i >= 0; i--) {
                queue.addFirst(batch.get(i));
            }
            throw e;
        }
        queued.addAndGet(-batch.size());
        return true;
    }

    /** Writes what is queued and stops the thread; later answers are written by their callers. */
    @Override
    public void close() {
        closed = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "store {0}: {1} answers of the attempt log were not written when the"
                    + " store closed: {2}", store, queued.get(), e.getMessage());
        }
    }
}
