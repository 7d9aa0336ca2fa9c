package io.idempotent.runtime.internal;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.runtime.internal.store.LeaseRenewal;
import io.idempotent.runtime.internal.store.OperationStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the lease of every running attempt, so that a lease expires only when its worker is dead
 * (or cut off from the store for the lease's whole length). A renewal that finds its lease gone
 * (expired, or taken over by another attempt) marks the attempt as having lost it: it can then no
 * longer pass the effect boundary. One that finds no record at all writes it again, held by this
 * attempt ({@link LostRecords}).
 *
 * <p>Renewals are batched: one thread keeps time and never touches the database; at each tick
 * (a sixth of the shortest lease), the attempts of one store and lease length whose last renewal
 * is a third of the lease old are renewed together, with every other attempt of that group at
 * least half as old, so the group stays one cohort: {@link OperationStore#renewLeases} renews
 * them in a few fenced statements (256 keys each) and says which it renewed, and each attempt
 * learns its own outcome. A lease is renewed when two thirds of it are left, and a failed
 * renewal is tried again at each tick until the lease ends.
 *
 * <p>The renewals run on threads of their own ({@value #RENEWAL_THREADS} at most, named
 * {@code idempotent-lease-renewal}), never on those of the tool bodies, the claims or the
 * completions: a body that blocks, or a queue of claims, cannot delay them. One batch stuck at
 * the store holds one thread; its attempts skip renewals until it returns, and every other
 * attempt keeps its lease.
 *
 * <p>Nearly every body ends long before its first renewal: an attempt that ends costs an add and
 * a remove on the set of running attempts, and no statement.
 */
final class LeaseHeartbeat implements AutoCloseable {

    /** Batches of renewals that may wait on the store at the same time before the next ones are skipped. */
    static final int RENEWAL_THREADS = 4;
    /** The shortest interval between two ticks. */
    private static final long MIN_TICK_MILLIS = 5;

    private static final System.Logger LOG = System.getLogger(LeaseHeartbeat.class.getName());

    private final ScheduledThreadPoolExecutor clock = newClock();
    private final ThreadPoolExecutor renewals = newRenewalPool();
    /** The attempts that run, from their start until {@link Beating#stop()}. */
    private final Set<Beating> running = ConcurrentHashMap.newKeySet();
    private final Object tickLock = new Object();
    /** The ticks' interval in milliseconds (a sixth of the shortest lease seen); read without the lock. */
    private volatile long tickInterval = Long.MAX_VALUE;
    private ScheduledFuture<?> ticking;

    /** One attempt's heartbeat, from its start until {@link #stop()}. */
    final class Beating {
        private final AttemptContext attempt;
        private final Group group;
        private final long period;
        private volatile boolean stopped;
        /**
         * Equality stays identity; a ready hash spares the set the identity hash, which the JVM
         * computes and stores on an object's first use, on every call.
         */
        private final int hash = ThreadLocalRandom.current().nextInt();

        private Beating(AttemptContext attempt, long period) {
            this.attempt = attempt;
            this.period = period;
            this.group = new Group(attempt.store(), attempt.policy().lease());
        }

        /** Stops the renewals of this attempt; one already sent may still land. */
        void stop() {
            stopped = true;
            running.remove(this);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            return this == other;
        }

        private LeaseRenewal renewal() {
            return new LeaseRenewal(attempt.policy().name(), attempt.key(), attempt.leaseToken(), attempt.attemptId());
        }
    }

    /** The attempts renewed together: one store, one lease length. */
    private record Group(OperationStore store, Duration lease) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Group g && g.store == store && g.lease.equals(lease);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(store) * 31 + lease.hashCode();
        }
    }

    private static ScheduledThreadPoolExecutor newClock() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
                DaemonThreads.named("idempotent-lease-clock"));
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    private static ThreadPoolExecutor newRenewalPool() {
        return new ThreadPoolExecutor(0, RENEWAL_THREADS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                DaemonThreads.named("idempotent-lease-renewal"));
    }

    /** Starts renewing the lease of {@code attempt}; the returned handle stops it. */
    Beating start(AttemptContext attempt) {
        long period = TimeUnit.MILLISECONDS.toNanos(Math.max(10, attempt.policy().lease().toMillis() / 3));
        Beating beating = new Beating(attempt, period);
        running.add(beating);
        long interval = Math.max(MIN_TICK_MILLIS, TimeUnit.NANOSECONDS.toMillis(period) / 2);
        if (interval < tickInterval) {
            synchronized (tickLock) {
                if (interval < tickInterval) {
                    tickInterval = interval;
                    if (ticking != null) {
                        ticking.cancel(false);
                    }
                    try {
                        ticking = clock.scheduleWithFixedDelay(this::tick, interval, interval, TimeUnit.MILLISECONDS);
                    } catch (RejectedExecutionException closed) {
                        // The runtime is closing: its calls are refused, nothing is left to renew.
                    }
                }
            }
        }
        return beating;
    }

    /** On the clock: sends the renewals that are due, a batch per group, to the renewal threads. */
    private void tick() {
        long now = System.nanoTime();
        Map<Group, List<Beating>> candidates = new HashMap<>();
        Set<Group> due = new java.util.HashSet<>();
        for (Beating b : running) {
            AttemptContext attempt = b.attempt;
            if (b.stopped || attempt.isLeaseLost()) {
                continue;
            }
            long age = now - attempt.renewedAt();
            if (age >= b.period) {
                due.add(b.group);
            }
            // Half a period old joins its group's batch early: the group stays one cohort, one batch.
            if (age >= b.period / 2) {
                candidates.computeIfAbsent(b.group, g -> new ArrayList<>()).add(b);
            }
        }
        for (Group group : due) {
            List<Beating> batch = new ArrayList<>();
            for (Beating b : candidates.get(group)) {
                if (b.attempt.startBeat()) {
                    batch.add(b);
                }
            }
            if (!batch.isEmpty()) {
                dispatch(group, batch, now);
            }
        }
    }

    private void dispatch(Group group, List<Beating> batch, long tickedAt) {
        try {
            renewals.execute(() -> {
                try {
                    renew(group, batch, tickedAt);
                } finally {
                    batch.forEach(b -> b.attempt.endBeat());
                }
            });
        } catch (RejectedExecutionException e) {
            batch.forEach(b -> b.attempt.endBeat());
            if (!renewals.isShutdown()) {
                LOG.log(Level.WARNING, () -> RENEWAL_THREADS + " batches of lease renewals are blocked on the store;"
                        + " the renewals of " + batch.size() + " running attempts wait for the next tick");
            }
        }
    }

    /**
     * On a renewal thread. {@code tickedAt} came before the statement was sent, and so before the
     * database set the new lease's end: counting the lease from it never overstates what is left.
     */
    private static void renew(Group group, List<Beating> batch, long tickedAt) {
        List<LeaseRenewal> leases = new ArrayList<>(batch.size());
        batch.forEach(b -> leases.add(b.renewal()));
        Set<LeaseRenewal> renewed;
        try {
            renewed = group.store().renewLeases(leases, group.lease());
        } catch (RuntimeException e) {
            // The store is unreachable for now; the next tick tries again. If the lease runs out
            // meanwhile, the next renewal or write of each attempt is refused by the store.
            LOG.log(Level.WARNING, () -> "the lease renewals of " + batch.size() + " running attempts (tools "
                    + toolsOf(batch) + ") failed (" + e.getClass().getName() + "); the next tick tries again");
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            Beating b = batch.get(i);
            if (renewed.contains(leases.get(i))) {
                b.attempt.leaseRenewed(tickedAt);
            } else if (!b.stopped) {
                notRenewed(b.attempt, tickedAt);
            }
        }
    }

    /** The lease was not renewed: the record is missing (then held again), or the lease is lost. */
    private static void notRenewed(AttemptContext attempt, long tickedAt) {
        try {
            if (LostRecords.holdAgain(attempt, attempt.policy().effectBoundary() == EffectBoundary.BODY_START
                    || attempt.effectMarked(), attempt.downstreamId())) {
                attempt.leaseRenewed(tickedAt);
            } else {
                attempt.leaseLost();
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, () -> "tool " + attempt.policy().name() + ", key " + attempt.key() + ": the"
                    + " lease was not renewed and its record could not be read (" + e.getClass().getName()
                    + "); the next tick tries again");
        }
    }

    private static String toolsOf(List<Beating> batch) {
        return batch.stream().map(b -> b.attempt.policy().name()).distinct().limit(5).toList().toString();
    }

    @Override
    public void close() {
        clock.shutdownNow();
        renewals.shutdownNow();
    }
}
