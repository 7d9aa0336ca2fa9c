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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;

/**
 * What bounds a fresh call, and which schema lets its completion be a HOT update: the floor's two
 * statements beside the same claim and completion on the store's full row under variants of its
 * schema (primary key only; the primary key and the purge index; the first version's partial indexes, whose predicates read
 * {@code status} and whose purge index holds the {@code expires_at} every completion moved; the
 * same with retention that does not move at completion; the looked-up states in a small side
 * table holding rows only while an operation is in progress or awaiting reconciliation, with and
 * without an index over it), and beside the store's own claim and completion
 * ({@link JdbcOperationStore}), all through plain JDBC with no runtime around them, so the
 * difference between rows is the database's. Prints ops/s per round, each ratio to the floor and
 * each table's HOT ratio ({@code n_tup_hot_upd / n_tup_upd} over the measured windows).
 * Run (after the package step of the README's "What a call costs"):
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.idempotent.benchmarks.store.StoreFreshAblation
 * </pre>
 *
 * <p>Options: {@code bench.seconds} (window per variant and round, default 4), {@code bench.rounds}
 * (default 3), {@code bench.threads} (default 16), {@code bench.fsync} ({@code on} by default),
 * {@code bench.variants} (the names of the variants to run beside the floor, comma-separated, as
 * {@code pk,exp,v1,open}; all by default), {@code bench.fill} (completed operations put in each
 * variant's table before the first round, default 0; the store's own table is not filled),
 * {@code bench.analyze} ({@code on} by default: the database is analysed after each variant's
 * warm-up, so that the planner knows each table's size as autovacuum would tell it on a table in
 * service; {@code off} measures young tables, whose statistics still say they are empty: the
 * store's batched completion then plans a sequential scan of {@code tool_operations}).
 */
public final class StoreFreshAblation {

    /** The record's columns, as the store's first version (V1) creates them; {@code %s} the table. */
    private static final String FULL_ROW_TABLE = "CREATE TABLE %s (operation_key VARCHAR(512) NOT NULL,"
            + " tool VARCHAR(200) NOT NULL, payload_hash CHAR(64) NOT NULL, payload_json TEXT NOT NULL,"
            + " status VARCHAR(32) NOT NULL, lease_token BIGINT NOT NULL, lease_until TIMESTAMP WITH TIME ZONE,"
            + " effect_started BOOLEAN NOT NULL, downstream_id VARCHAR(512), result_json TEXT, error_json TEXT,"
            + " attempts INTEGER NOT NULL, released_by VARCHAR(200), created_at TIMESTAMP WITH TIME ZONE NOT NULL,"
            + " updated_at TIMESTAMP WITH TIME ZONE NOT NULL, expires_at TIMESTAMP WITH TIME ZONE NOT NULL,"
            + " retention_ms BIGINT NOT NULL, attempt_id VARCHAR(64), attempt_outcome VARCHAR(32),"
            + " attempt_token BIGINT, attempt_downstream_id VARCHAR(512), attempt_detail TEXT,"
            + " attempt_started_at TIMESTAMP WITH TIME ZONE, attempt_ended_at TIMESTAMP WITH TIME ZONE,"
            + " PRIMARY KEY (tool, operation_key),"
            + " CHECK (status IN ('in_progress', 'completed', 'needs_reconciliation', 'failed_safe')))"
            + " WITH (fillfactor = 85)";
    /** The first version's partial indexes: two by state, one for the purge. */
    private static final String[] PARTIAL_INDEXES = {
        "CREATE INDEX ON %s (created_at) WHERE status = 'needs_reconciliation'",
        "CREATE INDEX ON %s (created_at) WHERE status = 'in_progress'",
        "CREATE INDEX ON %s (expires_at) WHERE status IN ('completed', 'failed_safe')"};
    /** The looked-up states' table: a row only while its operation is in one of them. */
    private static final String OPEN_TABLE = "CREATE TABLE %s_open (tool VARCHAR(200) NOT NULL,"
            + " operation_key VARCHAR(512) NOT NULL, status VARCHAR(32) NOT NULL,"
            + " created_at TIMESTAMP WITH TIME ZONE NOT NULL, PRIMARY KEY (tool, operation_key))";

    /**
     * The claim: the store's full row with the attempt on it. {@code expires_at} is the lease's
     * end plus the retention, so that a completion inside the lease leaves it where it is.
     */
    private static final String CLAIM_VALUES = "('refund', ?, ?, '{\"amount\":100,\"currency\":\"EUR\","
            + "\"orderId\":\"x\"}', 'in_progress', 1, CURRENT_TIMESTAMP + INTERVAL '30 seconds', TRUE, 1,"
            + " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 86400000, CURRENT_TIMESTAMP + INTERVAL '30 seconds'"
            + " + INTERVAL '1 day', 'attempt-1', 'RUNNING', 1, 'attempt 1', CURRENT_TIMESTAMP)";
    private static final String CLAIM_COLUMNS = "(tool, operation_key, payload_hash, payload_json, status,"
            + " lease_token, lease_until, effect_started, attempts, created_at, updated_at, retention_ms, expires_at,"
            + " attempt_id, attempt_outcome, attempt_token, attempt_detail, attempt_started_at)";
    private static final String CLAIM = "INSERT INTO %s " + CLAIM_COLUMNS + " VALUES " + CLAIM_VALUES
            + " ON CONFLICT DO NOTHING RETURNING lease_token";
    private static final String CLAIM_WITH_OPEN_ROW = "WITH created AS (INSERT INTO %1$s " + CLAIM_COLUMNS
            + " VALUES " + CLAIM_VALUES + " ON CONFLICT DO NOTHING RETURNING tool, operation_key, lease_token,"
            + " created_at), opened AS (INSERT INTO %1$s_open (tool, operation_key, status, created_at)"
            + " SELECT tool, operation_key, 'in_progress', created_at FROM created) SELECT lease_token FROM created";
    /** The completion; {@code %2$s} sets {@code expires_at}. */
    private static final String COMPLETION_SET = "status = 'completed', result_json = ?, error_json = NULL,"
            + " lease_until = NULL, updated_at = CURRENT_TIMESTAMP, expires_at = %2$s,"
            + " attempt_outcome = 'COMPLETED', attempt_detail = NULL, attempt_ended_at = CURRENT_TIMESTAMP";
    private static final String COMPLETION_GUARD = " WHERE tool = 'refund' AND operation_key = ?"
            + " AND status = 'in_progress' AND lease_token = ?";
    private static final String COMPLETION = "UPDATE %1$s SET " + COMPLETION_SET + COMPLETION_GUARD;
    private static final String COMPLETION_CLOSING_OPEN_ROW = "WITH ended AS (UPDATE %1$s SET " + COMPLETION_SET
            + COMPLETION_GUARD + " RETURNING tool, operation_key), closed AS (DELETE FROM %1$s_open o USING ended e"
            + " WHERE o.tool = e.tool AND o.operation_key = e.operation_key) SELECT count(*) FROM ended";
    /** Every ending restarts retention (the first version). */
    private static final String RESTARTED = "CURRENT_TIMESTAMP + retention_ms * INTERVAL '1 millisecond'";
    /** Retention kept unless the ending comes after the lease it was claimed with: the value, and HOT, stay. */
    private static final String KEPT = "GREATEST(expires_at, " + RESTARTED + ")";
    private static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private StoreFreshAblation() {
    }

    /** A claim and a completion of {@code key}. */
    private interface Call {
        void fresh(String key) throws Exception;
    }

    /** One way of making a fresh call, measured as a {@link Contender} of fresh calls only. */
    private record Variant(String name, String table, Call call) implements Contender {
        @Override
        public void fresh(String id) throws Exception {
            call.fresh("refund:" + id);
        }

        @Override
        public void replay(String id) {
            throw new UnsupportedOperationException("fresh calls only");
        }

        @Override
        public String updatedTable() {
            return table;
        }
    }

    /** Runs the variants and prints their figures. */
    public static void main(String[] args) throws Exception {
        Duration window = Settings.seconds("bench.seconds", 4);
        int rounds = Settings.integer("bench.rounds", 3);
        int threads = Settings.integer("bench.threads", 16);
        boolean fsync = !Settings.text("bench.fsync", "on").equals("off");
        List<String> only = Settings.list("bench.variants", "");
        boolean analyze = !Settings.text("bench.analyze", "on").equals("off");
        System.out.printf("StoreFreshAblation: %s per variant and round, %d rounds, %d threads, fsync %s; %s%n",
                window, rounds, threads, fsync ? "on" : "off", Load.now());
        try (BenchPostgres server = BenchPostgres.start(fsync)) {
            server.createDatabase("ablation");
            try (HikariDataSource dataSource = server.pool("ablation", threads)) {
                JdbcOperationStore store = new JdbcOperationStore("ablation", dataSource,
                        Dialect.detect("postgresql"), SchemaMode.CREATE, null);
                store.ensureSchema();
                FloorContender floor = new FloorContender(dataSource);
                List<Variant> variants = new ArrayList<>(List.of(
                        new Variant("floor: the floor's table (8 columns, primary key only), INSERT + HOT UPDATE",
                                "floor_operations", key -> floor.fresh(key.substring("refund:".length()))),
                        fullRow("pk: the record's full row, primary key only (no lookup by state, no purge index)",
                                dataSource, "ablation_pk", Indexes.PRIMARY_KEY, RESTARTED),
                        fullRow("exp: the record's full row, primary key and the purge index on expires_at,"
                                + " retention kept (no side table)", dataSource, "ablation_exp",
                                Indexes.EXPIRY_INDEX, KEPT),
                        fullRow("v1: the first version's partial indexes, every ending restarts retention",
                                dataSource, "ablation_v1", Indexes.PARTIAL, RESTARTED),
                        fullRow("v1-kept: the partial indexes, retention kept at completion", dataSource,
                                "ablation_v1_kept", Indexes.PARTIAL, KEPT),
                        fullRow("open: states in a side table (primary key only), purge index on expires_at,"
                                + " retention kept", dataSource, "ablation_open", Indexes.OPEN_TABLE, KEPT),
                        fullRow("open-idx: as open, and the side table indexed by (status, created_at)",
                                dataSource, "ablation_open_idx", Indexes.OPEN_TABLE_INDEXED, KEPT),
                        new Variant("store: the store's claim and completion (JdbcOperationStore)",
                                "tool_operations", key -> {
                            ClaimResult claim = store.claim(new ClaimRequest("attempt-" + key, key, "refund", HASH,
                                    "{}", Duration.ofSeconds(30), Duration.ofDays(1), true));
                            if (!(claim instanceof ClaimResult.Inserted inserted)) {
                                throw new IllegalStateException("the store did not claim " + key);
                            }
                            if (!store.complete("refund", key, inserted.leaseToken(), "attempt-" + key,
                                    "{\"cents\":100}", new AttemptEnd(null, null)).applied()) {
                                throw new IllegalStateException("the store did not complete " + key);
                            }
                        })));
                if (!only.isEmpty()) {
                    variants.removeIf(v -> !v.name().startsWith("floor:")
                            && only.stream().noneMatch(o -> v.name().startsWith(o + ":")));
                }
                createTables(dataSource, Settings.number("bench.fill", 0));
                List<List<Double>> figures = new ArrayList<>();
                Map<String, TableWrites.Updates> hot = new LinkedHashMap<>();
                variants.forEach(v -> figures.add(new ArrayList<>()));
                StatementStats.reset(dataSource);
                for (int round = 0; round < rounds; round++) {
                    for (int i = 0; i < variants.size(); i++) {
                        // The order rotates every round, so no variant always runs after the others.
                        int v = (i + round) % variants.size();
                        Variant variant = variants.get(v);
                        if (round == 0) {
                            Throughput.measure(variant, threads, null, Duration.ZERO, Duration.ofSeconds(3));
                            if (analyze) {
                                analyze(dataSource);
                            }
                        }
                        TableWrites.Updates before = TableWrites.updates(dataSource, threads, variant.table());
                        double ops = Throughput.measure(variant, threads, null, Duration.ofMillis(500), window)
                                .opsPerSecond();
                        TableWrites.Updates updates = TableWrites.updates(dataSource, threads, variant.table())
                                .since(before);
                        hot.merge(variant.name(), updates, (a, b) -> new TableWrites.Updates(a.updated()
                                + b.updated(), a.hot() + b.hot()));
                        figures.get(v).add(ops);
                        System.out.printf(Locale.ROOT, "  round %d  %-100s %6.0f ops/s, HOT %s; %s%n", round + 1,
                                variant.name(), ops, updates, Load.now());
                    }
                }
                System.out.println();
                System.out.printf("fresh calls, SQL only, %d threads, fsync %s; %s%n", threads, fsync ? "on" : "off",
                        Load.now());
                System.out.println();
                System.out.println("| fresh call, SQL only | ops/s | ratio to the floor | HOT updates |");
                System.out.println("|---|---|---|---|");
                for (int v = 0; v < variants.size(); v++) {
                    List<Double> ratios = new ArrayList<>();
                    for (int round = 0; round < rounds; round++) {
                        ratios.add(figures.get(v).get(round) / figures.get(0).get(round));
                    }
                    System.out.printf(Locale.ROOT, "| %s | %s | %s | %s |%n", variants.get(v).name(),
                            StoreThroughput.range(figures.get(v), f -> String.format(Locale.ROOT, "%.0f", f)),
                            StoreThroughput.range(ratios, f -> String.format(Locale.ROOT, "%.2f", f)),
                            hot.get(variants.get(v).name()));
                }
                List<String> top = StatementStats.top(dataSource, 20);
                if (!top.isEmpty()) {
                    System.out.println();
                    top.forEach(System.out::println);
                }
                store.close();
            }
        }
    }

    /**
     * The claim and completion on a table of the record's full row: with the first version's
     * partial indexes or not, with the looked-up states in a side table or not; {@code expires}
     * is what the completion sets {@code expires_at} to.
     */
    private static Variant fullRow(String name, DataSource dataSource, String table, Indexes indexes,
            String expires) {
        boolean openTable = indexes == Indexes.OPEN_TABLE || indexes == Indexes.OPEN_TABLE_INDEXED;
        String claim = (openTable ? CLAIM_WITH_OPEN_ROW : CLAIM).formatted(table);
        String completion = (openTable ? COMPLETION_CLOSING_OPEN_ROW : COMPLETION).formatted(table, expires);
        TABLES.put(table, indexes);
        return new Variant(name, table, key -> {
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
                    boolean ended;
                    if (openTable) {
                        try (ResultSet rs = ps.executeQuery()) {
                            ended = rs.next() && rs.getInt(1) == 1;
                        }
                    } else {
                        ended = ps.executeUpdate() == 1;
                    }
                    if (!ended) {
                        throw new IllegalStateException(table + ": the completion of " + key + " lost its lease");
                    }
                }
            }
        });
    }

    /** Updates the planner's statistics of every table (the measured windows come after). */
    private static void analyze(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("ANALYZE");
        }
    }

    /** How a variant's table is indexed, and where the looked-up states are. */
    private enum Indexes {
        /** The primary key only: nothing finds an operation by its state, nothing finds the expired. */
        PRIMARY_KEY,
        /** The primary key and an index on expires_at: the store's table without its side table. */
        EXPIRY_INDEX,
        /** The first version's three partial indexes. */
        PARTIAL,
        /** An index on expires_at; the states in a side table with its primary key. */
        OPEN_TABLE,
        /** As {@link #OPEN_TABLE}, and the side table indexed by (status, created_at). */
        OPEN_TABLE_INDEXED
    }

    /** Each variant's table and how it is indexed, created before the first round. */
    private static final Map<String, Indexes> TABLES = new LinkedHashMap<>();

    /** Creates each variant's tables, each with {@code fill} completed operations already in it. */
    private static void createTables(DataSource dataSource, long fill) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            for (Map.Entry<String, Indexes> t : TABLES.entrySet()) {
                String table = t.getKey();
                Indexes indexes = t.getValue();
                st.execute(FULL_ROW_TABLE.formatted(table));
                if (fill > 0) {
                    st.execute("INSERT INTO " + table + " " + CLAIM_COLUMNS.replace(")", ", result_json)")
                            + " SELECT 'refund', 'fill:' || g, md5(g::text) || md5(g::text), '{}', 'completed', 1,"
                            + " NULL, TRUE, 1, now(), now(), 86400000, now() + interval '1 day', 'a' || g,"
                            + " 'COMPLETED', 1, NULL, now(), '{\"cents\":100}' FROM generate_series(1, " + fill
                            + ") AS g");
                }
                if (indexes == Indexes.PARTIAL) {
                    for (String index : PARTIAL_INDEXES) {
                        st.execute(index.formatted(table));
                    }
                }
                if (indexes == Indexes.EXPIRY_INDEX) {
                    st.execute("CREATE INDEX ON " + table + " (expires_at)");
                }
                if (indexes == Indexes.OPEN_TABLE || indexes == Indexes.OPEN_TABLE_INDEXED) {
                    st.execute("CREATE INDEX ON " + table + " (expires_at)");
                    st.execute(OPEN_TABLE.formatted(table));
                    if (indexes == Indexes.OPEN_TABLE_INDEXED) {
                        st.execute("CREATE INDEX ON " + table + "_open (status, created_at)");
                    }
                }
                st.execute("VACUUM ANALYZE " + table);
            }
        }
    }
}
