package io.idempotent.runtime.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How long an attempt's final write (its completion, or the record of its failure) is tried
 * again after the store first failed under it: the outcome is known in this JVM and nowhere
 * else, so giving up early turns a finished call into one for reconciliation. The write is tried
 * while the attempt's lease lasts ({@link AttemptContext#leaseRemaining()}, which the heartbeat,
 * still beating during the final write, renews whenever the store answers again), and at most one
 * lease length after the first failure, so that a store that keeps renewing the lease but refuses
 * the write does not hold the caller for ever. Between tries it waits 50 ms, doubling up to 1 s,
 * never past the lease. An interrupted caller stops at once. Every try is fenced by the lease
 * token and the attempt id, so a try after the lease is lost changes nothing.
 */
final class FinalWriteRetries {

    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long LONGEST_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final AttemptContext attempt;
    private final long giveUpAt;
    private long pause = FIRST_PAUSE_NANOS;

    /** Starts counting from the first failure of {@code attempt}'s final write. */
    FinalWriteRetries(AttemptContext attempt) {
        this.attempt = attempt;
        this.giveUpAt = System.nanoTime() + attempt.policy().lease().toNanos();
    }

    /** Waits before another try and returns true, or returns false when the lease is gone. */
    boolean another() {
        Duration left = attempt.leaseRemaining();
        long wait = Math.min(pause, Math.min(left.toNanos(), giveUpAt - System.nanoTime()));
        if (wait <= 0 || Thread.currentThread().isInterrupted()) {
            return false;
        }
        try {
            TimeUnit.NANOSECONDS.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        pause = Math.min(LONGEST_PAUSE_NANOS, pause * 2);
        return attempt.leaseRemaining().toNanos() > 0;
    }
}
