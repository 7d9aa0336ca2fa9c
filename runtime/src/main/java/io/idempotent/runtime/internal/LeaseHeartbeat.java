package io.idempotent.runtime.internal;

import io.idempotent.annotations.EffectBoundary;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Extends the lease of every running attempt at a third of its length, so that a lease expires
 * only when its worker is dead (or cut off from the store). A heartbeat that finds its lease
 * gone (expired, or taken over by another attempt) marks the attempt as having lost it: it can
 * then no longer pass the effect boundary. One that finds no record at all writes it again,
 * held by this attempt ({@link LostRecords}).
 *
 * <p>One thread keeps time and never touches the database; the beats themselves (JDBC calls that
 * can block for as long as the store's connect timeout) run on a small pool of their own, so one
 * stuck beat holds one thread and every other attempt keeps its lease. An attempt whose previous
 * beat is still running skips a beat rather than queueing a second one.
 *
 * <p>Nearly every body ends long before its first beat, so an attempt is not scheduled when it
 * starts: it joins a set of running attempts, and a sweep of that set, every half beat period
 * while attempts run, schedules the beats of those it finds still running, each first due a
 * beat period after its attempt started, as if it had been scheduled at once. A call that ends
 * between two sweeps costs an add and a remove on the set, and never wakes the clock.
 */
final class LeaseHeartbeat implements AutoCloseable {

    /** Beats that may block at the same time before the next ones are skipped. */
    static final int MAX_CONCURRENT_BEATS = 16;

    private static final System.Logger LOG = System.getLogger(LeaseHeartbeat.class.getName());

    private final ScheduledThreadPoolExecutor clock = newClock();
    private final ThreadPoolExecutor beats = newBeatPool();
    /** Attempts that started and have neither ended nor had their beats scheduled yet. */
    private final Set<Beating> unscheduled = ConcurrentHashMap.newKeySet();
    private final Object sweepLock = new Object();
    /** Whether a sweep is due; read without the lock by {@link #start}. */
    private volatile boolean sweepDue;
    /** The shortest half beat period seen, in milliseconds: the sweeps' interval. */
    private volatile long sweepInterval = Long.MAX_VALUE;
    /** The sweep chain that is current; an older one (replaced by a shorter interval) stops. */
    private long sweepGeneration;
    private ScheduledFuture<?> nextSweep;

    /** One attempt's heartbeat, from its start until {@link #stop()}. */
    final class Beating {
        private final AttemptContext attempt;
        private final long period;
        private final long startedAt = System.nanoTime();
        private volatile boolean stopped;
        private volatile ScheduledFuture<?> scheduled;
        /**
         * Equality stays identity; a ready hash spares the set the identity hash, which the JVM
         * computes and stores on an object's first use, on every call.
         */
        private final int hash = ThreadLocalRandom.current().nextInt();

        private Beating(AttemptContext attempt, long period) {
            this.attempt = attempt;
            this.period = period;
        }

        /** Stops the beats (those scheduled, and any a sweep would schedule). */
        void stop() {
            stopped = true;
            unscheduled.remove(this);
            ScheduledFuture<?> beating = scheduled;
            if (beating != null) {
                beating.cancel(false);
            }
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            return this == other;
        }

        private void schedule() {
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt);
            scheduled = clock.scheduleWithFixedDelay(() -> dispatch(attempt), Math.max(0, period - elapsed), period,
                    TimeUnit.MILLISECONDS);
            // stop() sets stopped before it reads scheduled: one of the two sides cancels.
            if (stopped) {
                scheduled.cancel(false);
            }
        }
    }

    private static ScheduledThreadPoolExecutor newClock() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
                DaemonThreads.named("idempotent-lease-clock"));
        // A body that outlives a sweep but ends before its first beat leaves a cancelled task;
        // without this it would stay queued for a third of the lease.
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    private static ThreadPoolExecutor newBeatPool() {
        return new ThreadPoolExecutor(0, MAX_CONCURRENT_BEATS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                DaemonThreads.named("idempotent-lease-heartbeat"));
    }

    /** Starts beating for {@code attempt}; the returned handle stops it. */
    Beating start(AttemptContext attempt) {
        Duration lease = attempt.policy().lease();
        long period = Math.max(10, lease.toMillis() / 3);
        Beating beating = new Beating(attempt, period);
        unscheduled.add(beating);
        long interval = Math.max(1, period / 2);
        // The sweep clears sweepDue before it looks at the set, and this reads it after adding.
        if (!sweepDue || interval < sweepInterval) {
            synchronized (sweepLock) {
                scheduleSweep(interval);
            }
        }
        return beating;
    }

    /** Makes sure a sweep is due within {@code interval}; holds the sweep lock. */
    private void scheduleSweep(long interval) {
        if (interval < sweepInterval) {
            sweepInterval = interval;
            if (nextSweep != null) {
                nextSweep.cancel(false);
                nextSweep = null;
            }
        }
        if (nextSweep == null) {
            long generation = ++sweepGeneration;
            nextSweep = clock.schedule(() -> sweep(generation), sweepInterval, TimeUnit.MILLISECONDS);
            sweepDue = true;
        }
    }

    private void sweep(long generation) {
        synchronized (sweepLock) {
            if (generation != sweepGeneration) {
                return;
            }
            nextSweep = null;
            sweepDue = false;
        }
        for (Iterator<Beating> it = unscheduled.iterator(); it.hasNext(); ) {
            Beating beating = it.next();
            it.remove();
            if (!beating.stopped) {
                try {
                    beating.schedule();
                } catch (RejectedExecutionException closed) {
                    return;
                }
            }
        }
        synchronized (sweepLock) {
            if (!unscheduled.isEmpty() && nextSweep == null) {
                scheduleSweep(sweepInterval);
            }
        }
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
                    attempt.attemptId(), attempt.policy().lease()).applied()) {
                attempt.leaseRenewed(sent);
            } else if (LostRecords.holdAgain(attempt, attempt.policy().effectBoundary() == EffectBoundary.BODY_START
                    || attempt.effectMarked(), attempt.downstreamId())) {
                // No record at all, not one taken over: this attempt holds the operation again.
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
