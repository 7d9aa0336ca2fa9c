package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Callers of a store sent from threads of their own while another call is in flight (the group
 * commit tests): each call's outcome or its exception, and a wait until every one of them is
 * parked behind the call in flight (or done).
 */
final class QueuedCallers implements AutoCloseable {

    private final int count;
    private final ExecutorService pool;
    private final List<Thread> threads = new ArrayList<>();
    private final List<CompletableFuture<Object>> outcomes = new ArrayList<>();

    QueuedCallers(int count) {
        this.count = count;
        this.pool = Executors.newFixedThreadPool(count);
    }

    /** Sends {@code call} from a thread of its own. */
    void send(Supplier<Object> call) {
        outcomes.add(CompletableFuture.supplyAsync(() -> {
            synchronized (threads) {
                threads.add(Thread.currentThread());
            }
            try {
                return call.get();
            } catch (RuntimeException e) {
                return e;
            }
        }, pool));
    }

    /** Waits until every caller sent is parked (queued behind the call in flight) or done. */
    void awaitQueued(String what) {
        TestDatabase.await(() -> {
            synchronized (threads) {
                return threads.size() == count && threads.stream().allMatch(
                        t -> t.getState() == Thread.State.TIMED_WAITING || t.getState() == Thread.State.WAITING);
            }
        }, Duration.ofSeconds(30), what);
    }

    /** Each caller's outcome (or exception), in the order sent. */
    List<Object> outcomes() throws Exception {
        List<Object> all = new ArrayList<>();
        for (CompletableFuture<Object> f : outcomes) {
            all.add(f.get(30, TimeUnit.SECONDS));
        }
        return all;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
