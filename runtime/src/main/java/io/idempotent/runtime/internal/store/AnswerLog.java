package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.StoreUnavailableException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

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
    private static final long RETRY_MILLIS = 200;
    private static final System.Logger LOG = System.getLogger(AnswerLog.class.getName());

    /** Writes a batch of answer rows in one statement. */
    interface Writer {
        void write(List<AttemptRow> rows);
    }

    private final String store;
    private final Writer writer;
    private final ArrayDeque<AttemptRow> queue = new ArrayDeque<>();
    private final Object writing = new Object();
    private Thread thread;
    private boolean closed;

    AnswerLog(String store, Writer writer) {
        this.store = store;
        this.writer = writer;
    }

    /** Queues {@code row}; false when the queue is full or closed, and the caller must write it. */
    synchronized boolean add(AttemptRow row) {
        if (closed || queue.size() >= CAPACITY) {
            return false;
        }
        queue.addLast(row);
        if (thread == null) {
            thread = new Thread(this::run, "idempotent-attempt-log-" + store);
            thread.setDaemon(true);
            thread.start();
        }
        notifyAll();
        return true;
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
            synchronized (this) {
                while (queue.isEmpty() && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (queue.isEmpty()) {
                    return;
                }
            }
            try {
                flush();
            } catch (StoreUnavailableException e) {
                synchronized (this) {
                    if (closed) {
                        // close() wrote what it could and reported the rest; a closed store's
                        // connections do not come back, so trying again would never end.
                        return;
                    }
                }
                LOG.log(System.Logger.Level.WARNING, "store {0}: could not write {1} answers to the attempt log"
                        + " (they stay queued and are tried again): {2}", store, queued(), e.getMessage());
                synchronized (this) {
                    try {
                        wait(RETRY_MILLIS);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
        }
    }

    /** Writes one batch under {@link #writing}; false when there was nothing to write. */
    private boolean writeBatch() {
        List<AttemptRow> batch = new ArrayList<>();
        synchronized (this) {
            while (!queue.isEmpty() && batch.size() < BATCH) {
                batch.add(queue.pollFirst());
            }
        }
        if (batch.isEmpty()) {
            return false;
        }
        try {
            writer.write(batch);
        } catch (RuntimeException e) {
            synchronized (this) {
                for (int i = batch.size() - 1; i >= 0; i--) {
                    queue.addFirst(batch.get(i));
                }
            }
            throw e;
        }
        return true;
    }

    private synchronized int queued() {
        return queue.size();
    }

    /** Writes what is queued and stops the thread; later answers are written by their callers. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "store {0}: {1} answers of the attempt log were not written when the"
                    + " store closed: {2}", store, queued(), e.getMessage());
        }
    }
}
