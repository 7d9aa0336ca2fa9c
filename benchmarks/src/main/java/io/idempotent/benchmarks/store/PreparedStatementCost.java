package io.idempotent.benchmarks.store;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What unnamed statements cost (issue 47): behind a transaction pooler (PgBouncer's
 * {@code pool_mode=transaction}) the store sets the PostgreSQL driver's {@code prepareThreshold=0}
 * on its own connections, so that the pooler never hands a named server-side statement to another
 * client; elsewhere it keeps the driver's default, for what this measures.
 * This runs the same real tool calls through the runtime ({@link RuntimeContender}) on two pools
 * of one embedded server, one with the driver's default ({@code prepareThreshold=5}: named,
 * server-side prepared statements after five uses) and one with 0 (every statement parsed and
 * planned again), fresh calls and replays, rounds alternating, and prints ops/s and CPU per call.
 * Run (after the package step of the README's "What a call costs"):
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.idempotent.benchmarks.store.PreparedStatementCost
 * </pre>
 *
 * <p>Options: {@code bench.seconds} (window, default 4), {@code bench.rounds} (default 3),
 * {@code bench.threads} (default 16), {@code bench.fsync} ({@code off} by default here: the
 * statements' cost, not the disk's).
 */
public final class PreparedStatementCost {

    private PreparedStatementCost() {
    }

    /** Runs the comparison and prints its figures. */
    public static void main(String[] args) throws Exception {
        Duration window = Duration.ofSeconds(Long.getLong("bench.seconds", 4));
        int rounds = Integer.getInteger("bench.rounds", 3);
        int threads = Integer.getInteger("bench.threads", 16);
        boolean fsync = "on".equals(System.getProperty("bench.fsync", "off"));
        try (BenchPostgres server = BenchPostgres.start(fsync)) {
            Throughput.cpuOf(server);
            int[] thresholds = {5, 0};
            List<RuntimeContender> contenders = new ArrayList<>();
            List<HikariDataSource> pools = new ArrayList<>();
            for (int threshold : thresholds) {
                String database = "threshold_" + threshold;
                server.createDatabase(database);
                HikariDataSource pool = server.pool(database, threads, threshold);
                pools.add(pool);
                contenders.add(new RuntimeContender(pool));
            }
            System.out.printf(Locale.ROOT, "PostgreSQL %s, %s, %d threads, %s windows%n", server.version(),
                    server.label(), threads, window);
            for (int round = 1; round <= rounds; round++) {
                for (int i = 0; i < thresholds.length; i++) {
                    RuntimeContender contender = contenders.get(i);
                    List<String> ids = new ArrayList<>();
                    for (int n = 0; n < 2000; n++) {
                        String id = "seed-" + round + "-" + n;
                        contender.fresh(id);
                        ids.add(id);
                    }
                    Throughput.Window fresh = Throughput.measure(contender, threads, null, Duration.ofSeconds(1),
                            window);
                    Throughput.Window replay = Throughput.measure(contender, threads, ids, Duration.ofSeconds(1),
                            window);
                    System.out.printf(Locale.ROOT, "round %d, prepareThreshold=%d: fresh %.0f ops/s (%s),"
                            + " replay %.0f ops/s (%s)%n", round, thresholds[i], fresh.opsPerSecond(),
                            fresh.cpuPerCall(), replay.opsPerSecond(), replay.cpuPerCall());
                }
            }
            for (RuntimeContender contender : contenders) {
                contender.close();
            }
            pools.forEach(HikariDataSource::close);
        }
    }
}
