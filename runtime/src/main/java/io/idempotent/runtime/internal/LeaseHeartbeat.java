package io.idempotent.runtime.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Extends the lease of every running attempt at a third of its length, so that a lease expires
 * only when its worker is dead (or cut off from the store). A heartbeat that finds its lease
 * gone marks the attempt as having lost it: it can then neither pass the effect boundary nor
 * store an outcome.
 *
 * <p>One thread keeps time and never touches the database; the beats themselves (JDBC calls that
 * can block for as long as the store's connect timeout) run on a small pool of their own, so one
 * stuck beat holds one thread and every other attempt keeps its lease. An attempt whose previous
 * beat is still running skips a beat rather than queueing a second one.
 */
final class LeaseHeartbeat implements AutoCloseable {

    /** Beats that may block at the same time before the next ones are skipped. */
    static final int MAX_CONCURRENT_BEATS = 16;

    private static final System.Logger LOG = System.getLogger(LeaseHeartbeat.class.getName());

    private final ScheduledThreadPoolExecutor clock = newClock();
    private final ThreadPoolExecutor beats = newBeatPool();

    private static ScheduledThreadPoolExecutor newClock() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
                daemon("idempotent-lease-clock"));
        // Nearly every body ends long before its first beat; without this each call's cancelled
        // task would stay queued for a third of the lease, so memory would grow with throughput.
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    private static ThreadPoolExecutor newBeatPool() {
        return new ThreadPoolExecutor(0, MAX_CONCURRENT_BEATS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                daemon("idempotent-lease-heartbeat"));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Starts beating for {@code attempt}; the returned handle stops it. */
    ScheduledFuture<?> start(AttemptContext attempt) {
        Duration lease = attempt.policy().lease();
        long period = Math.max(10, lease.toMillis() / 3);
        return clock.scheduleWithFixedDelay(() -> dispatch(attempt), period, period, TimeUnit.MILLISECONDS);
    }

    private void dispatch(AttemptContext attempt) {
        if (attempt.isLeaseLost() || !attempt.startBeat()) {
            return;
        }
        try {
            beats.execute(() -> {
                try {
                    beat(attempt);
                } finally {
                    attempt.endBeat();
                }
            });
        } catch (RejectedExecutionException e) {
            attempt.endBeat();
            LOG.log(Level.WARNING, () -> "tool " + attempt.policy().name() + ", key " + attempt.key() + ": "
                    + MAX_CONCURRENT_BEATS + " lease heartbeats are blocked on the store; this beat is skipped");
        }
    }

    private static void beat(AttemptContext attempt) {
        long sent = System.nanoTime();
        try {
            if (attempt.store().heartbeat(attempt.policy().name(), attempt.key(), attempt.leaseToken(),
                    attempt.policy().lease()).applied()) {
                attempt.leaseRenewed(sent);
            } else {
                attempt.leaseLost();
            }
        } catch (RuntimeException e) {
            // The store is unreachable for now; the next beat tries again. If the lease runs out
            // meanwhile, the next heartbeat or write of this attempt is refused by the store.
            LOG.log(Level.WARNING, () -> "tool " + attempt.policy().name() + ", key " + attempt.key()
                    + ": a lease heartbeat failed (" + e.getClass().getName() + "); the next one tries again");
        }
    }

    @Override
    public void close() {
        clock.shutdownNow();
        beats.shutdownNow();
    }
}
