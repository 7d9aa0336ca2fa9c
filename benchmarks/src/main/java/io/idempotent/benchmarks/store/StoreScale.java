package io.idempotent.benchmarks.store;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Does a claim get slower as the table grows? The latency of fresh calls (claim, body, completion,
 * attempt log) through the runtime, one thread, in two databases of one embedded PostgreSQL
 * server: one holding {@code scale.small} operations (default 10^3), one holding
 * {@code scale.large} (default 10^7), both filled by {@link TableFill}'s bulk insert with their
 * attempt-log rows. The two are measured in alternation, so the load falls on both; the goal is a
 * ratio of at most 1.2, judged on the median (a loaded machine's stalls move the mean most).
 * Run:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.idempotent.benchmarks.store.StoreScale
 * </pre>
 *
 * <p>Options: {@code scale.large} (default 1e7; the fill takes a few minutes on 2 loaded cores,
 * printed as it goes), {@code scale.small} (1e3), {@code scale.seconds} (window per database and
 * round, default 2), {@code scale.rounds} (default 6; many short alternating rounds spread the
 * shared machine's load over both databases), {@code scale.fsync} ({@code off} by default:
 * without the disk's flush the index's share of a claim is largest, so growth shows most).
 */
public final class StoreScale {

    private StoreScale() {
    }

    /** One window's latencies in microseconds. */
    private record Latencies(double mean, double p50, double p99, int calls) {
        static Latencies of(long[] nanos, int n) {
            long[] sorted = Arrays.copyOf(nanos, n);
            Arrays.sort(sorted);
            double mean = Arrays.stream(sorted).average().orElseThrow() / 1000.0;
            return new Latencies(mean, sorted[n / 2] / 1000.0, sorted[Math.min(n - 1, (int) (n * 0.99))] / 1000.0, n);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "mean %.0f µs, p50 %.0f µs, p99 %.0f µs (%d calls)", mean, p50, p99,
                    calls);
        }
    }

    /** Fills, measures and prints. */
    public static void main(String[] args) throws Exception {
        long small = Settings.number("scale.small", 1_000);
        long large = Settings.number("scale.large", 10_000_000);
        Duration window = Settings.seconds("scale.seconds", 2);
        int rounds = Settings.integer("scale.rounds", 6);
        boolean fsync = Settings.text("scale.fsync", "off").equals("on");
        System.out.printf("StoreScale: %,d vs %,d rows, %s per database and round, %d rounds, fsync %s, JDK %s;"
                + " %s%n", small, large, window, rounds, fsync ? "on" : "off", Runtime.version(), Load.now());
        List<Latencies> smallRuns = new ArrayList<>();
        List<Latencies> largeRuns = new ArrayList<>();
        double fillSeconds;
        try (BenchPostgres server = BenchPostgres.start(fsync)) {
            server.createDatabase("small");
            server.createDatabase("large");
            try (HikariDataSource smallPool = server.pool("small", 2);
                    HikariDataSource largePool = server.pool("large", 2);
                    RuntimeContender smallStore = new RuntimeContender(smallPool);
                    RuntimeContender largeStore = new RuntimeContender(largePool)) {
                // The first call creates the runtime's schema, which the fill then follows.
                smallStore.fresh("schema");
                largeStore.fresh("schema");
                TableFill.fill(smallPool, small, false);
                long started = System.nanoTime();
                TableFill.fill(largePool, large, true);
                fillSeconds = (System.nanoTime() - started) / 1e9;
                System.out.printf("filled %,d operations and their attempt rows in %.0f s (with VACUUM ANALYZE);"
                        + " %s%n", large, fillSeconds, Load.now());
                for (RuntimeContender store : List.of(smallStore, largeStore)) {
                    measure(store, "warm-up", Duration.ofSeconds(1));
                }
                for (int round = 0; round < rounds; round++) {
                    boolean smallFirst = round % 2 == 0;
                    for (int i = 0; i < 2; i++) {
                        boolean isSmall = (i == 0) == smallFirst;
                        Latencies l = measure(isSmall ? smallStore : largeStore, "r" + round, window);
                        (isSmall ? smallRuns : largeRuns).add(l);
                        System.out.printf("  round %d, %,d rows: %s%n", round + 1, isSmall ? small : large, l);
                    }
                }
            }
        }
        double smallMean = smallRuns.stream().mapToDouble(Latencies::mean).average().orElseThrow();
        double largeMean = largeRuns.stream().mapToDouble(Latencies::mean).average().orElseThrow();
        double smallP50 = smallRuns.stream().mapToDouble(Latencies::p50).average().orElseThrow();
        double largeP50 = largeRuns.stream().mapToDouble(Latencies::p50).average().orElseThrow();
        System.out.println();
        System.out.printf(Locale.ROOT, "| fresh call, 1 thread, fsync %s | %,d rows | %,d rows | ratio |%n",
                fsync ? "on" : "off", small, large);
        System.out.println("|---|---|---|---|");
        System.out.printf(Locale.ROOT, "| mean latency | %.0f µs | %.0f µs | %.2f |%n", smallMean, largeMean,
                largeMean / smallMean);
        System.out.printf(Locale.ROOT, "| median latency | %.0f µs | %.0f µs | %.2f |%n", smallP50, largeP50,
                largeP50 / smallP50);
        System.out.printf(Locale.ROOT, "%nfill of %,d rows: %.0f s. Goal of issue 10: claim latency at %,d rows <="
                + " 1.2x that at %,d (median): %s%n", large, fillSeconds, large, small,
                largeP50 / smallP50 <= 1.2 ? "met" : "NOT met");
        System.out.println("end: " + Load.now());
    }

    /** Fresh calls on one thread for {@code window}; each call's latency. */
    private static Latencies measure(RuntimeContender store, String prefix, Duration window) {
        long[] nanos = new long[1 << 16];
        int n = 0;
        long end = System.nanoTime() + window.toNanos();
        for (long i = 0; System.nanoTime() < end; i++) {
            String id = prefix + "-" + java.util.UUID.randomUUID();
            long t0 = System.nanoTime();
            store.fresh(id);
            long t = System.nanoTime() - t0;
            if (n == nanos.length) {
                nanos = Arrays.copyOf(nanos, n * 2);
            }
            nanos[n++] = t;
        }
        return Latencies.of(nanos, n);
    }
}
