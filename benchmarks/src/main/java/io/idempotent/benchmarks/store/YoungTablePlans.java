package io.idempotent.benchmarks.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.internal.store.AttemptEnd;
import io.idempotent.runtime.internal.store.ClaimRequest;
import io.idempotent.runtime.internal.store.ClaimResult;
import io.idempotent.runtime.internal.store.Dialect;
import io.idempotent.runtime.internal.store.JdbcOperationStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which plans the store's claim and completions get on a young table (its statistics still say it
 * is empty) and after an {@code ANALYZE}: 16 threads make fresh calls through {@link
 * JdbcOperationStore} (so completions are batched) for {@code bench.seconds} (default 6), the
 * tables are analysed, and they run as long again. The server logs sampled plans with
 * {@code auto_explain} (a sample of 2% of all statements); this prints,
 * per phase and statement, how often each table was read by which scan. Run (after the package
 * step of docs/performance.md):
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.idempotent.benchmarks.store.YoungTablePlans
 * </pre>
 */
public final class YoungTablePlans {

    private static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    private static final Pattern SCAN = Pattern.compile(
            "(Seq Scan|Index Scan using \\w+|Index Only Scan using \\w+|Bitmap Heap Scan) on (tool_operations\\w*)");
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    private YoungTablePlans() {
    }

    /** Runs both phases and prints the scans counted in the sampled plans. */
    public static void main(String[] args) throws Exception {
        Duration window = Settings.seconds("bench.seconds", 6);
        Path logs = Files.createTempDirectory("young-table-plans");
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setServerConfig("fsync", "on")
                .setServerConfig("max_connections", "200").setServerConfig("logging_collector", "on")
                .setServerConfig("log_directory", logs.toString()).setServerConfig("log_timezone", "UTC")
                .setServerConfig("shared_preload_libraries", "auto_explain").start()) {
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
                for (String setting : List.of("log_min_duration = 0", "sample_rate = 0.02", "log_analyze = on",
                        "log_buffers = on", "log_nested_statements = on")) {
                    st.execute("ALTER DATABASE postgres SET auto_explain." + setting);
                }
            }
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(pg.getJdbcUrl("postgres", "postgres"));
            config.setUsername("postgres");
            config.setMaximumPoolSize(16);
            String analysedAt;
            try (HikariDataSource dataSource = new HikariDataSource(config)) {
                JdbcOperationStore store = new JdbcOperationStore("plans", dataSource, Dialect.detect("postgresql"),
                        SchemaMode.CREATE, null);
                store.ensureSchema();
                AtomicLong keys = new AtomicLong();
                run(store, keys, window);
                try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                    st.execute("ANALYZE");
                }
                analysedAt = LOG_TIME.format(java.time.Instant.now());
                System.out.printf("young table: %d fresh calls; analysed at %s UTC%n", keys.get(), analysedAt);
                run(store, keys, window);
                System.out.printf("in all: %d fresh calls%n", keys.get());
                store.close();
            }
            count(logs, analysedAt).forEach((k, n) -> System.out.printf("%5d  %s%n", n, k));
        }
    }

    private static void run(JdbcOperationStore store, AtomicLong keys, Duration window) throws InterruptedException {
        long end = System.nanoTime() + window.toNanos();
        Thread[] threads = new Thread[16];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                while (System.nanoTime() < end) {
                    String key = "k" + keys.incrementAndGet();
                    ClaimResult claim = store.claim(new ClaimRequest("attempt-" + key, key, "refund", HASH, "{}",
                            Duration.ofSeconds(30), Duration.ofDays(1), true));
                    if (!(claim instanceof ClaimResult.Inserted inserted)) {
                        throw new IllegalStateException("the store did not claim " + key);
                    }
                    store.complete("refund", key, inserted.leaseToken(), "attempt-" + key, "{\"cents\":100}",
                            new AttemptEnd(null, null));
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    /** "phase, statement: scan" with how often the logged plans had it. */
    private static Map<String, Integer> count(Path logs, String analysedAt) throws IOException {
        Map<String, Integer> counts = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> list = Files.list(logs)) {
            files = list.sorted().toList();
        }
        String time = "";
        String statement = null;
        for (Path file : files) {
            for (String line : Files.readAllLines(file)) {
                if (line.contains("LOG:  duration:")) {
                    time = line.substring(0, Math.min(23, line.length()));
                    statement = null;
                } else if (line.contains("Query Text: ")) {
                    String text = line.substring(line.indexOf("Query Text: ") + 12);
                    statement = text.startsWith("WITH input AS") ? "batched completion"
                            : text.startsWith("WITH ended AS") ? "single completion"
                            : text.startsWith("WITH existing AS") ? "claim" : null;
                } else if (statement != null) {
                    Matcher m = SCAN.matcher(line);
                    if (m.find()) {
                        String phase = time.compareTo(analysedAt) < 0 ? "1 young table" : "2 analysed";
                        counts.merge(phase + ", " + statement + ": " + m.group(1) + " on " + m.group(2), 1,
                                Integer::sum);
                    }
                }
            }
        }
        return counts;
    }
}
