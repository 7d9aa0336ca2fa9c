package io.idempotent.runtime.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The two kinds of thread of the asynchronous tool calls ({@link AsyncToolCalls}), never shared:
 * the runtime's store-work threads, a fixed number that make the store calls and run no
 * application code, and the threads bodies run on, which may block: the runtime's own body
 * threads, or the application's executor with the rule that keeps a nesting from waiting for the
 * thread its caller holds. Apart from the calls' protocol because which thread runs what is one
 * decision, and the protocol only hands work over.
 */
final class AsyncThreads {

    /** Set on the application executor's thread while it runs a body (or an answer) of ours. */
    private static final ThreadLocal<Boolean> ON_APPLICATION_EXECUTOR = new ThreadLocal<>();

    private final ThreadPoolExecutor executor;
    /** The application's executor for bodies, or null. */
    private final Executor applicationBodies;
    private final ThreadPoolExecutor ownBodies;

    /**
     * The threads for {@code settings}, named {@code storeThreadName}-N and {@code bodyThreadName}-N.
     *
     * @param maxPending the calls admitted at once; the runtime's body threads are at most two per call
     */
    AsyncThreads(AsyncSettings settings, int maxPending, String storeThreadName, String bodyThreadName) {
        // Unbounded queue, bounded by admission: at most two tasks per admitted call wait in it.
        this.executor = new ThreadPoolExecutor(settings.threads(), settings.threads(), 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), DaemonThreads.named(storeThreadName));
        executor.allowCoreThreadTimeOut(true);
        this.applicationBodies = settings.bodies();
        // A thread per task, up to two per pending call (the body, then the answer; or an answer
        // beside a cancelled body): never a queue, so a body never waits behind a blocked one.
        int most = (int) Math.min(Integer.MAX_VALUE, 2L * maxPending + 1);
        this.ownBodies = new ThreadPoolExecutor(0, most, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                DaemonThreads.named(bodyThreadName));
    }

    /**
     * Where the body of a call made on this thread runs: the application's executor, unless this
     * thread is one of its own running a body of ours (the nested body could wait for the very
     * thread its caller holds), or there is none: then the runtime's body threads.
     */
    Executor bodiesForThisCaller() {
        if (applicationBodies == null || ON_APPLICATION_EXECUTOR.get() != null) {
            return ownBodies;
        }
        return task -> applicationBodies.execute(() -> {
            ON_APPLICATION_EXECUTOR.set(Boolean.TRUE);
            try {
                task.run();
            } finally {
                ON_APPLICATION_EXECUTOR.remove();
            }
        });
    }

    /** Runs {@code task} on a store-work thread; false when they were shut down. */
    boolean submit(Runnable task) {
        try {
            executor.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Runs the tasks already queued, then stops; bodies already running go on. */
    void close() {
        executor.shutdown();
        ownBodies.shutdown();
    }
}
