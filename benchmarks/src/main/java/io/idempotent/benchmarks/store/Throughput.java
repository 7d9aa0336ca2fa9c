package io.idempotent.benchmarks.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs one contender with a number of threads, each calling in a closed loop, and counts the
 * calls that end inside a fixed window after a short warm-up. A call that fails ends the run: a
 * contender that errs is not measured.
 */
final class Throughput {

    private static final AtomicLong RUNS = new AtomicLong();

    private Throughput() {
    }

    /** Fresh calls ({@code replayIds} null) or replays of {@code replayIds}; calls per second. */
    static double measure(Contender contender, int threads, List<String> replayIds, Duration warmup, Duration window)
            throws InterruptedException {
        String prefix = "t" + RUNS.incrementAndGet() + "-";
        LongAdder done = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread worker = new Thread(() -> {
                started.countDown();
                try {
                    for (long i = 0; !stop.get(); i++) {
                        if (replayIds == null) {
                            contender.fresh(prefix + thread + "-" + i);
                        } else {
                            contender.replay(replayIds.get((int) ((thread * 7919L + i * 31L) % replayIds.size())));
                        }
                        done.increment();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    stop.set(true);
                }
            }, contender.name() + "-" + t);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
        started.await();
        Thread.sleep(warmup.toMillis());
        long first = done.sum();
        long from = System.nanoTime();
        Thread.sleep(window.toMillis());
        long last = done.sum();
        long to = System.nanoTime();
        stop.set(true);
        for (Thread worker : workers) {
            worker.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException(contender.name() + " failed during the run", failure.get());
        }
        return (last - first) / ((to - from) / 1e9);
    }
}
