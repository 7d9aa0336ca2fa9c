package io.idempotent.runtime.internal.store;

import java.time.Duration;
import java.util.Objects;

/**
 * How many answers a store's attempt log may hold in memory ({@code store.answer.queue.size}),
 * and how long closing waits for the calls in flight and then for the queued answers to be
 * written ({@code store.close.timeout}).
 *
 * @param queueSize answers queued at most; a call that finds the queue full writes its own
 * @param closeTimeout the bounded wait of each step of closing
 * @param deferred whether answers may wait in memory to be written in batches; false where the
 *     store cannot be sure to write them before the JVM exits (see {@link #writtenAtOnce()})
 * @param replayCache how many recently completed operations the store answers repeats of from
 *     memory ({@code store.replay.cache.size}; 0: none; see {@code ReplayCache})
 */
public record AnswerLogLimits(int queueSize, Duration closeTimeout, boolean deferred, int replayCache) {

    /** The completed operations a store keeps in memory unless configured (docs/store.md, "Replays from memory"). */
    public static final int DEFAULT_REPLAY_CACHE = 10_000;

    /**
     * The defaults: ten thousand answers (a few megabytes; under a second of the fastest replays
     * measured), and five seconds, the pool's default wait for a connection.
     */
    public static final AnswerLogLimits DEFAULT = new AnswerLogLimits(10_000, Duration.ofSeconds(5));

    /** Limits whose answers may be deferred. */
    public AnswerLogLimits(int queueSize, Duration closeTimeout) {
        this(queueSize, closeTimeout, true, DEFAULT_REPLAY_CACHE);
    }

    /** These limits with {@code entries} completed operations answered from memory (0: none). */
    public AnswerLogLimits withReplayCache(int entries) {
        return new AnswerLogLimits(queueSize, closeTimeout, deferred, entries);
    }

    /**
     * These limits with every answer written before its call returns: for an embedded H2 store
     * shared with {@code AUTO_SERVER=TRUE}, which H2 closes in a JVM shutdown hook of its own (it
     * refuses {@code DB_CLOSE_ON_EXIT=FALSE} there), beside the runtime's: the answers still
     * queued when the JVM exits would meet a closed database.
     */
    public AnswerLogLimits writtenAtOnce() {
        return new AnswerLogLimits(queueSize, closeTimeout, false, replayCache);
    }

    /** Refuses a queue of no answers, a negative cache and a wait that is not positive. */
    public AnswerLogLimits {
        Objects.requireNonNull(closeTimeout, "closeTimeout");
        if (queueSize < 1) {
            throw new IllegalArgumentException("queueSize must be at least 1, was " + queueSize);
        }
        if (replayCache < 0) {
            throw new IllegalArgumentException("replayCache must not be negative, was " + replayCache);
        }
        if (closeTimeout.isZero() || closeTimeout.isNegative()) {
            throw new IllegalArgumentException("closeTimeout must be positive, was " + closeTimeout);
        }
    }
}
