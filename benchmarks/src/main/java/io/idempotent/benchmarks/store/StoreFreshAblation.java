package io.idempotent.benchmarks.store;

import com.zaxxer.hikari.HikariDataSource;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.internal.store.AttemptEnd;
import io.idempotent.runtime.internal.store.ClaimRequest;
import io.idempotent.runtime.internal.store.ClaimResult;
import io.idempotent.runtime.internal.store.Dialect;
import io.idempotent.runtime.internal.store.JdbcOperationStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * What bounds a fresh call: the floor's two statements beside the same two statements on the
 * store's full row (primary key only, then with the store's four indexes, whose completion cannot
 * be a HOT update), and beside the store's own claim and completion ({@link JdbcOperationStore},
 * the attempt kept on the record), all through plain JDBC with no runtime around them, so the
 * difference between rows is the database's. Prints ops/s per round and each ratio to the floor.
 * Run (after the package step of the README's "What a call costs"):
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.idempotent.benchmarks.store.StoreFreshAblation
 * </pre>
 *
 * <p>Options: {@code bench.seconds} (window per variant and round, default 4), {@code bench.rounds}
 * (default 3), {@code bench.threads} (default 16), {@code bench.fsync} ({@code on} by default).
 */
public final class StoreFreshAblation {

    private static final String FULL_ROW_CLAIM = "INSERT INTO %s (tool, operation_key, payload_hash, payload_json,"
            + " status, lease_token, lease_until, effect_started, attempts, created_at, updated_at, retention_ms,"
            + " expires_at) VALUES ('refund', ?, ?, '{\"amount\":100,\"currency\":\"EUR\",\"orderId\":\"x\"}',"
            + " 'in_progress', 1, CURRENT_TIMESTAMP + INTERVAL '30 seconds', TRUE, 1, CURRENT_TIMESTAMP,"
            + " CURRENT_TIMESTAMP, 86400000, CURRENT_TIMESTAMP + INTERVAL '1 day') ON CONFLICT DO NOTHING"
            + " RETURNING lease_token";
    private static final String FULL_ROW_COMPLETION = "UPDATE %s SET status = 'completed', result_json = ?,"
            + " error_json = NULL, lease_until = NULL, updated_at = CURRENT_TIMESTAMP%s WHERE tool = 'refund'"
            + " AND operation_key = ? AND status = 'in_progress' AND lease_token = ?";
    private static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private StoreFreshAblation() {
    }

    /** A claim and a completion of {@code key}. */
    private interface Call {
        void fresh(String key) throws Exception;
    }

    /** One way of making a fresh call, measured as a {@link Contender} of fresh calls only. */
    private record Variant(String name, Call call) implements Contender {
        @Override
        public void fresh(String id) throws Exception {
            call.fresh("refund:" + id);
        }

        @Override
        public void replay(String id) {
            throw new UnsupportedOperationException("fresh calls only");
        }
    }

    /** Runs the variants and prints their figures. */
    public static void main(String[] args) throws Exception {
        Duration window = Settings.seconds("bench.seconds", 4);
        int rounds = Settings.integer("bench.rounds", 3);
        int threads = Settings.integer("bench.threads", 16);
        boolean fsync = !Settings.text("bench.fsync", "on").equals("off");
        System.out.printf("StoreFreshAblation: %s per variant and round, %d rounds, %d threads, fsync %s; %s%n",
                window, rounds, threads, fsync ? "on" : "off", Load.now());
        try (BenchPostgres server = BenchPostgres.start(fsync)) {
            server.createDatabase("ablation");
            try (HikariDataSource dataSource = server.pool("ablation", threads)) {
                JdbcOperationStore store = new JdbcOperationStore("ablation", dataSource,
                        Dialect.detect("postgresql"), SchemaMode.CREATE, null);
                store.ensureSchema();
                FloorContender floor = new FloorContender(dataSource);
                createFullRowTables(dataSource);
                List<Variant> variants = List.of(
                        new Variant("the floor's table (8 columns, primary key only), INSERT + HOT UPDATE",
                                key -> floor.fresh(key.substring("refund:".length()))),
                        fullRow("the record's full row, primary key only, HOT completion, no attempt row", dataSource,
                                "ablation_pk", ""),
                        fullRow("the full row with the store's four indexes, completion not HOT, no attempt row",
                                dataSource, "ablation_indexed",
                                ", expires_at = CURRENT_TIMESTAMP + retention_ms * INTERVAL '1 millisecond'"),
                        new Variant("the store's claim and completion (JdbcOperationStore), the attempt on the record", key -> {
                            ClaimResult claim = store.claim(new ClaimRequest("attempt-" + key, key, "refund", HASH,
                                    "{}", Duration.ofSeconds(30), Duration.ofDays(1), true));
                            if (!(claim instanceof ClaimResult.Inserted inserted)) {
                                throw new IllegalStateException("the store did not claim " + key);
                            }
                            if (!store.complete("refund", key, inserted.leaseToken(), "{\"cents\":100}",
                                    new AttemptEnd(null, null)).applied()) {
                                throw new IllegalStateException("the store did not complete " + key);
                            }
                        }));
                List<List<Double>> figures = new ArrayList<>();
                variants.forEach(v -> figures.add(new ArrayList<>()));
                for (int round = 0; round < rounds; round++) {
                    for (int i = 0; i < variants.size(); i++) {
                        // The order rotates every round, so no variant always runs after the others.
                        int v = (i + round) % variants.size();
                        Variant variant = variants.get(v);
                        if (round == 0) {
                            Throughput.measure(variant, threads, null, Duration.ZERO, Duration.ofSeconds(3));
                        }
                        double ops = Throughput.measure(variant, threads, null, Duration.ofMillis(500), window);
                        figures.get(v).add(ops);
                        System.out.printf(Locale.ROOT, "  round %d  %-80s %6.0f ops/s%n", round + 1, variant.name(),
                                ops);
                    }
                }
                System.out.println();
                System.out.println("| fresh call, SQL only | ops/s | ratio to the floor |");
                System.out.println("|---|---|---|");
                for (int v = 0; v < variants.size(); v++) {
                    List<Double> ratios = new ArrayList<>();
                    for (int round = 0; round < rounds; round++) {
                        ratios.add(figures.get(v).get(round) / figures.get(0).get(round));
                    }
                    System.out.printf(Locale.ROOT, "| %s | %s | %s |%n", variants.get(v).name(),
                            StoreThroughput.range(figures.get(v), f -> String.format(Locale.ROOT, "%.0f", f)),
                            StoreThroughput.range(ratios, f -> String.format(Locale.ROOT, "%.2f", f)));
                }
                store.close();
            }
        }
    }

    private static Variant fullRow(String name, DataSource dataSource, String table, String restartRetention) {
        String claim = FULL_ROW_CLAIM.formatted(table);
        String completion = FULL_ROW_COMPLETION.formatted(table, restartRetention);
        return new Variant(name, key -> {
            try (Connection c = dataSource.getConnection()) {
                long token;
                try (PreparedStatement ps = c.prepareStatement(claim)) {
                    ps.setString(1, key);
                    ps.setString(2, HASH);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            throw new IllegalStateException(table + ": " + key + " was not new");
                        }
                        token = rs.getLong(1);
                    }
                }
                try (PreparedStatement ps = c.prepareStatement(completion)) {
                    ps.setString(1, "{\"cents\":100}");
                    ps.setString(2, key);
                    ps.setLong(3, token);
                    if (ps.executeUpdate() != 1) {
                        throw new IllegalStateException(table + ": the completion of " + key + " lost its lease");
                    }
                }
            }
        });
    }

    /** Two copies of the store's record table: one with its primary key only, one with all its indexes. */
    private static void createFullRowTables(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ablation_pk (LIKE tool_operations INCLUDING DEFAULTS INCLUDING CONSTRAINTS)"
                    + " WITH (fillfactor = 85)");
            st.execute("ALTER TABLE ablation_pk ADD PRIMARY KEY (tool, operation_key)");
            st.execute("CREATE TABLE ablation_indexed (LIKE tool_operations INCLUDING ALL) WITH (fillfactor = 85)");
        }
    }
}
