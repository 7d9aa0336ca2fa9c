package io.idempotent.runtime.internal;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Extends the lease of every running attempt at a third of its length, so that a lease expires
 * only when its worker is dead (or cut off from the store). A heartbeat that finds its lease
 * gone marks the attempt as having lost it: it can then neither pass the effect boundary nor
 * store an outcome.
 */
final class LeaseHeartbeat implements AutoCloseable {

    private final ScheduledExecutorService scheduler = newScheduler();

    private static ScheduledExecutorService newScheduler() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "idempotent-lease-heartbeat");
            t.setDaemon(true);
            return t;
        });
        // Nearly every body ends long before its first beat; without this each call's cancelled
        // task would stay queued for a third of the lease, so memory would grow with throughput.
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    /** Starts beating for {@code attempt}; the returned handle stops it. */
    ScheduledFuture<?> start(AttemptContext attempt) {
        Duration lease = attempt.policy().lease();
        long period = Math.max(10, lease.toMillis() / 3);
        return scheduler.scheduleWithFixedDelay(() -> beat(attempt), period, period, TimeUnit.MILLISECONDS);
    }

    private static void beat(AttemptContext attempt) {
        if (attempt.isLeaseLost()) {
            return;
        }
        try {
            if (!attempt.store().heartbeat(attempt.tool(), attempt.key(), attempt.leaseToken(), attempt.policy().lease()).applied()) {
                attempt.leaseLost();
            }
        } catch (RuntimeException e) {
            // The store is unreachable for now; the next beat tries again. If the lease runs out
            // meanwhile, the next heartbeat or write of this attempt is refused by the store.
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
