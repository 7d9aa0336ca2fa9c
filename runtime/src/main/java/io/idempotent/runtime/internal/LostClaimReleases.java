package io.idempotent.runtime.internal;

import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.internal.store.OperationStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Releases claims whose answer was lost (the claim's statement was sent, and the store failed
 * before it answered) and whose body therefore never started: such a claim, if it was recorded,
 * would hold its key "in progress" until its lease expired and then, for a tool whose effect may
 * begin with its body, leave it for reconciliation, though this JVM knows that nothing ran. Once
 * the store answers again, one fenced statement ({@link OperationStore#releaseClaim}) makes the
 * key fresh; a claim that was never recorded, or a record another call holds, is left alone.
 *
 * <p>One daemon thread ({@code idempotent-claim-release}) tries each release with a growing pause
 * (100 ms doubling to 2 s) for as long as the claim's lease plus a minute; a release it could not
 * write by then is logged, and the record then expires by the usual rules. A failure of any kind
 * is caught: the thread never dies.
 */
final class LostClaimReleases implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LostClaimReleases.class.getName());
    private static final long FIRST_PAUSE_MILLIS = 100;
    private static final long LONGEST_PAUSE_MILLIS = 2_000;
    /** How long past the claim's lease a release is still tried. */
    private static final Duration BEYOND_THE_LEASE = Duration.ofMinutes(1);
    /** What a released record's {@code released_by} says. */
    static final String RELEASED_BY = "idempotent runtime: the claim's answer was lost and the body did not run";

    private final ScheduledThreadPoolExecutor thread = newThread();

    private static ScheduledThreadPoolExecutor newThread() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1,
                DaemonThreads.named("idempotent-claim-release"));
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /** Releases {@code attemptId}'s claim of {@code key}, if it was recorded, once the store answers. */
    void release(OperationStore store, String tool, String key, String attemptId, Duration lease) {
        long deadline = System.nanoTime() + lease.plus(BEYOND_THE_LEASE).toNanos();
        schedule(new Release(store, tool, key, attemptId, deadline), FIRST_PAUSE_MILLIS);
    }

    private void schedule(Release release, long pauseMillis) {
        try {
            thread.schedule(() -> release.run(pauseMillis), pauseMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            LOG.log(Level.WARNING, () -> "tool " + release.tool + ", key " + release.key + ": the runtime closed before"
                    + " the claim whose answer was lost could be released; if it was recorded it expires with its lease");
        }
    }

    private final class Release {
        private final OperationStore store;
        private final String tool;
        private final String key;
        private final String attemptId;
        private final long deadline;

        private Release(OperationStore store, String tool, String key, String attemptId, long deadline) {
            this.store = store;
            this.tool = tool;
            this.key = key;
            this.attemptId = attemptId;
            this.deadline = deadline;
        }

        void run(long pauseMillis) {
            try {
                if (store.releaseClaim(tool, key, attemptId, RELEASED_BY).applied()) {
                    LOG.log(Level.INFO, () -> "tool " + tool + ", key " + key + ": the claim whose answer was lost is"
                            + " released (status failed_safe); its body did not run, and the key can be called again");
                }
                return;
            } catch (RuntimeException | Error e) {
                if (System.nanoTime() - deadline >= 0) {
                    String why = e instanceof IdempotencyException known ? known.happened() : e.getClass().getName();
                    LOG.log(Level.WARNING, () -> "tool " + tool + ", key " + key + ": the claim whose answer was lost"
                            + " could not be released before its lease ran out (" + why + "); if it was recorded, it"
                            + " expires by the usual rules");
                    return;
                }
            }
            schedule(this, Math.min(LONGEST_PAUSE_MILLIS, pauseMillis * 2));
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
