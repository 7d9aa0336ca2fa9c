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
 * calls that end inside a fixed window after a short warm-up. The window ends only when the
 * contender's own backlog ({@link Contender#backlog()}: writes it deferred past its calls) is
 * empty: the calls stop at the window's end and the time it then takes to write what is left is
 * added to the window, so a contender that leaves work for later is not measured faster for it.
 * A call that fails ends the run: a contender that errs is not measured.
 */
final class Throughput {

    private static final AtomicLong RUNS = new AtomicLong();
    private static final Duration DRAIN_LIMIT = Duration.ofMinutes(2);

    /**
     * One window: calls per second (drain included), the backlog left when the calls stopped, and
     * the time it took to empty it.
     */
    record Window(double opsPerSecond, long backlog, Duration drain, long calls, Duration jvmCpu,
            Duration serverCpu) {
        /** CPU µs per call of the window, "JVM + server". */
        String cpuPerCall() {
            return calls == 0 ? "–" : String.format(java.util.Locale.ROOT, "%.0f + %.0f µs CPU per call",
                    jvmCpu.toNanos() / 1e3 / calls, serverCpu.toNanos() / 1e3 / calls);
        }
    }

    /** The server's CPU time so far, for {@link Window#serverCpu()} (zero when not measured). */
    private static java.util.function.Supplier<Duration> serverCpu = () -> Duration.ZERO;

    /** Measures the CPU time of {@code server} beside each window from now on. */
    static void cpuOf(BenchPostgres server) {
        serverCpu = server::cpu;
    }

    private static Duration jvmCpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    private Throughput() {
    }

    /** Fresh calls ({@code replayIds} null) or replays of {@code replayIds}, measured over {@code window}. */
    static Window measure(Contender contender, int threads, List<String> replayIds, Duration warmup, Duration window)
            throws Exception {
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
        Duration jvmFrom = jvmCpu();
        Duration serverFrom = serverCpu.get();
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
        long backlog = contender.backlog();
        long drained = to;
        if (backlog > 0) {
            long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
            long left;
            while ((left = contender.backlog()) > 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(contender.name() + " still had " + left + " of its " + backlog
                            + " deferred writes after " + DRAIN_LIMIT);
                }
                Thread.sleep(1);
            }
            drained = System.nanoTime();
        }
        Duration jvm = jvmCpu().minus(jvmFrom);
        Duration server = serverCpu.get().minus(serverFrom);
        return new Window((last - first) / ((drained - from) / 1e9), backlog, Duration.ofNanos(drained - to),
                done.sum() - first, jvm, server);
    }
}
