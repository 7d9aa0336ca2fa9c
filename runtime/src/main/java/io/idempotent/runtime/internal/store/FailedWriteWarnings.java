package io.idempotent.runtime.internal.store;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The attempt-log writer's lines while its store fails: the first failed write, then at most one
 * line per interval with how many writes failed since the last line, and one line when a write
 * succeeds again. A store down for minutes under load tries its batch every few hundred
 * milliseconds; a line per try would flood the log. Lines carry counts and tool names, never an
 * answer's payload or detail. Used by the writer under its write lock, so one thread at a time.
 */
final class FailedWriteWarnings {

    private static final System.Logger LOG = System.getLogger(AnswerLog.class.getName());

    private final String store;
    private final long everyNanos;
    private final Duration every;
    private final LongSupplier nanoClock;
    private boolean failing;
    private long lastLineAt;
    private long failedSinceLine;
    private long failedInAll;

    FailedWriteWarnings(String store, Duration every, LongSupplier nanoClock) {
        this.store = store;
        this.every = every;
        this.everyNanos = every.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * A write failed: {@code held} answers wait (for {@code tools}, computed only when a line is
     * written), {@code why} says what happened without advice.
     */
    synchronized void failed(int held, Supplier<String> tools, String why) {
        long now = nanoClock.getAsLong();
        failedSinceLine++;
        failedInAll++;
        if (!failing) {
            failing = true;
            LOG.log(System.Logger.Level.WARNING, "store {0}: could not write {1} answers to the attempt log"
                    + " (tools: {2}); they stay queued and are tried again, and further failures are counted in"
                    + " one line every {3}: {4}", store, held, tools.get(), every, why);
        } else if (now - lastLineAt - everyNanos >= 0) {
            LOG.log(System.Logger.Level.WARNING, "store {0}: still could not write to the attempt log: {1} failed"
                    + " writes since the last line, {2} answers queued (tools: {3}): {4}", store, failedSinceLine, held,
                    tools.get(), why);
        } else {
            return;
        }
        lastLineAt = now;
        failedSinceLine = 0;
    }

    /** A write succeeded: if writes had failed, say once that the log is written again. */
    synchronized void succeeded() {
        if (!failing) {
            return;
        }
        LOG.log(System.Logger.Level.INFO, "store {0}: the attempt log is written again after {1} failed writes",
                store, failedInAll);
        failing = false;
        failedSinceLine = 0;
        failedInAll = 0;
    }
}
