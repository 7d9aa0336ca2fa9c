package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.StoreExtension;
import io.idempotent.runtime.testing.TestDatabase;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The plans of the hot statements on PostgreSQL, with the statements exactly as the store sends
 * them (recorded with their parameters) over a table of 20,000 finished operations and 3,060 open
 * ones: every call finds its row through an index, a fresh call writes no row but its
 * operation's (and its open row), the lookups by state, the gauge and the purge go through the
 * open operations' state index and the expiry index, and the attempt log is read through its key index
 * and the primary key. The plans are
 * written to {@code target/hot-statement-plans.txt} for docs/store.md ("Plans of the hot statements").
 */
class HotStatementPlansTest {

    private record Recorded(String sql, Map<Integer, Object> params) {
    }

    private final List<Recorded> recorded = new ArrayList<>();

    @AfterEach
    void dropTables() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            TestDatabase.dropLibraryTables(st);
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(StoreExtension.postgresUrl(), "postgres", "postgres");
    }

    @Test
    void everyHotStatementFindsItsRowThroughAnIndex() throws Exception {
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.SAFE).build();
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", recording()).build()) {
            runtime.call(refund, "warm-up", Map.of(), String.class, () -> "schema");
            fill();
            recorded.clear();
            runtime.call(refund, "k", Map.of("a", 1), String.class, () -> "fresh");
            runtime.call(refund, "k", Map.of("a", 1), String.class, () -> "replayed");
            runtime.operations().purgeExpired("default");
            runtime.operations().awaitingReconciliation("default", 50);
            runtime.operations().inProgress("default", 50);
            runtime.operations().countAwaitingReconciliation("default");
            runtime.operations().find(refund.name(), "k");
        }
        JdbcOperationStore direct = new JdbcOperationStore("default", recording(), new PostgresDialect(),
                io.idempotent.runtime.SchemaMode.CREATE, null);
        direct.renewLeases(List.of(new LeaseRenewal("refund", "open:1", 1, "a-open"),
                new LeaseRenewal("refund", "fill:2", 1, "a2")), java.time.Duration.ofMinutes(1));
        direct.close();
        StringBuilder out = new StringBuilder();
        String claim = analyzedPlan(out, "claim of an existing key (a replay, a conflict, in progress)",
                "WITH existing AS (", null);
        String freshClaim = analyzedPlan(out, "claim of a new key", "WITH existing AS (", "never-claimed");
        String completion = plan(out, "completion, which ends the attempt on the same row",
                "SET status = 'completed', result_json = ?");
        String answers = plan(out, "answers written in a batch (one statement, each column an array)",
                "INSERT INTO tool_operation_attempt_log (attempt_id, tool, operation_key, outcome, lease_token,"
                        + " payload_hash, downstream_id");
        String log = plan(out, "operator: a page of the attempt log of one operation (the view)",
                "ended_at FROM tool_operation_attempts WHERE");
        String logSize = plan(out, "operator: how many rows the attempt log of one operation has",
                "SELECT COUNT(*) FROM tool_operation_attempts WHERE");
        String purge = plan(out, "purge", "WITH gone AS (DELETE FROM tool_operations");
        String reconcile = plan(out, "operator: awaiting reconciliation",
                "t.operation_key = o.operation_key WHERE o.status = 'needs_reconciliation'");
        String running = plan(out, "operator: in progress", "t.operation_key = o.operation_key WHERE o.status = 'in_progress'");
        String gauge = plan(out, "gauge: operations awaiting reconciliation, by tool",
                "COUNT(*) FROM tool_operations_open WHERE status = ?");
        String renewals = plan(out, "lease renewals, batched (one statement for up to 256 running attempts)",
                "FROM (VALUES");
        Files.createDirectories(Path.of("target"));
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Path.of("target", "hot-statement-plans.txt")))) {
            w.print(out);
        }

        // An existing key: the primary-key read finds the row, and the insert is filtered out
        // before it tries one (no conflict checked, nothing locked).
        assertThat(claim).contains("Index Scan using tool_operations_pk on tool_operations")
                .contains("One-Time Filter: (NOT $").contains("Conflicting Tuples: 0").doesNotContain("Seq Scan");
        assertThat(claimedRows(claim)).isZero();
        assertThat(freshClaim).contains("Index Scan using tool_operations_pk on tool_operations")
                .contains("Conflict Arbiter Indexes: tool_operations_pk")
                .doesNotContain("tool_operation_attempt").doesNotContain("Seq Scan");
        assertThat(claimedRows(freshClaim)).isEqualTo(1);
        // The completion's row through the primary key, its open row through the open
        // operations' key; the attempt log is not written.
        assertThat(completion).contains("Index Scan using tool_operations_pk")
                .contains("Delete on tool_operations_open").contains("using tool_operations_open_pk")
                .doesNotContain("tool_operation_attempt").doesNotContain("Seq Scan");
        assertThat(freshClaim).contains("Insert on tool_operations_open");
        // The batch's rows come from its parameters (unnest): no table is read.
        assertThat(answers).contains("Insert on tool_operation_attempt_log").contains("Function Scan on u")
                .doesNotContain("Seq Scan").doesNotContain("Index Scan");
        assertThat(log).contains("Limit").contains("tool_operation_attempt_log_pk").contains("tool_operations_pk")
                .doesNotContain("Seq Scan");
        assertThat(logSize).contains("tool_operation_attempt_log_pk").contains("tool_operations_pk")
                .doesNotContain("Seq Scan");
        assertThat(purge).contains("tool_operations_expiry_idx").doesNotContain("Seq Scan");
        for (String byState : List.of(reconcile, running, gauge)) {
            assertThat(byState).contains("tool_operations_open_state_idx").doesNotContain("Seq Scan");
        }
        assertThat(reconcile).contains("tool_operations_pk");
        // Each renewed key through the primary key, however many operations the table holds.
        assertThat(renewals).contains("tool_operations_pk").doesNotContain("Seq Scan on tool_operations ");
    }

    @Test
    void heartbeatsAndTheEffectBoundaryAreHotUpdates() throws Exception {
        JdbcOperationStore store = new JdbcOperationStore("default", recording(), new PostgresDialect(),
                io.idempotent.runtime.SchemaMode.CREATE, null);
        assertThat(store.claim(new ClaimRequest("a-1", "hb", "refund", "h", "{}", java.time.Duration.ofHours(1),
                java.time.Duration.ofDays(1), false))).isInstanceOf(ClaimResult.Inserted.class);
        long before = hotUpdates();
        for (int i = 0; i < 20; i++) {
            assertThat(store.heartbeat("refund", "hb", 1, "a-1", java.time.Duration.ofHours(1)).applied()).isTrue();
        }
        assertThat(store.markEffectStarting("refund", "hb", 1, "a-1", "psp-1", java.time.Duration.ofHours(1)).applied())
                .isTrue();
        for (int i = 0; i < 20; i++) {
            assertThat(store.renewLeases(List.of(new LeaseRenewal("refund", "hb", 1, "a-1")),
                    java.time.Duration.ofHours(1))).hasSize(1);
        }
        // The statistics reach pg_stat_user_tables a little later: poll, with a deadline.
        io.idempotent.runtime.testing.TestDatabase.await(() -> hotUpdates() - before >= 41,
                java.time.Duration.ofSeconds(30), "41 HOT updates of tool_operations in pg_stat_user_tables");
        store.close();
    }

    @Test
    void completionsAreHotUpdates() throws Exception {
        JdbcOperationStore store = new JdbcOperationStore("default", recording(), new PostgresDialect(),
                io.idempotent.runtime.SchemaMode.CREATE, null);
        store.ensureSchema();
        long hotBefore = hotUpdates();
        long updatesBefore = updates();
        for (int i = 0; i < 20; i++) {
            ClaimResult claim = store.claim(new ClaimRequest("a-" + i, "done-" + i, "refund", "h", "{}",
                    java.time.Duration.ofMinutes(5), java.time.Duration.ofDays(1), true));
            assertThat(claim).isInstanceOf(ClaimResult.Inserted.class);
            assertThat(store.complete("refund", "done-" + i, ((ClaimResult.Inserted) claim).leaseToken(), "a-" + i,
                    "\"r\"", new AttemptEnd("psp-" + i, null)).applied()).isTrue();
        }
        // The statistics reach pg_stat_user_tables a little later: poll, with a deadline.
        io.idempotent.runtime.testing.TestDatabase.await(() -> updates() - updatesBefore >= 20,
                java.time.Duration.ofSeconds(30), "20 updates of tool_operations in pg_stat_user_tables");
        assertThat(hotUpdates() - hotBefore).as("HOT updates among the 20 completions").isEqualTo(20);
        store.close();
    }

    private static long hotUpdates() {
        return tableStatistic("n_tup_hot_upd");
    }

    private static long updates() {
        return tableStatistic("n_tup_upd");
    }

    private static long tableStatistic(String column) {
        try (Connection c = connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COALESCE(sum(" + column + "), 0) FROM pg_stat_user_tables"
                        + " WHERE relname = 'tool_operations'")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * 20,000 completed operations, each with its attempt on its record and a replay in the log,
     * 60 awaiting reconciliation and 3,000 in progress, with their open rows, so that the planner
     * sees real tables.
     */
    private static void fill() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO tool_operations (tool, operation_key, payload_hash, payload_json, status,"
                    + " lease_token, effect_started, result_json, attempts, created_at, updated_at, retention_ms,"
                    + " expires_at, attempt_id, attempt_outcome, attempt_token, attempt_started_at, attempt_ended_at)"
                    + " SELECT 'refund', 'fill:' || g, md5(g::text) || md5(g::text), '{}', 'completed',"
                    + " 1, TRUE, '\"r\"', 1, now(), now(), 86400000, now() + interval '1 day', 'a' || g,"
                    + " 'COMPLETED', 1, now(), now() FROM generate_series(1, 20000) AS g");
            st.execute("INSERT INTO tool_operation_attempt_log (attempt_id, tool, operation_key, outcome,"
                    + " lease_token, started_at, ended_at) SELECT 'r' || g, 'refund', 'fill:' || g, 'REPLAYED', 0,"
                    + " now(), now() FROM generate_series(1, 20000) AS g");
            for (String[] open : new String[][] {{"needs_reconciliation", "60"}, {"in_progress", "3000"}}) {
                st.execute("INSERT INTO tool_operations (tool, operation_key, payload_hash, payload_json, status,"
                        + " lease_token, effect_started, attempts, created_at, updated_at, retention_ms, expires_at)"
                        + " SELECT 'refund', '" + open[0] + ":' || g, md5(g::text) || md5(g::text), '{}', '"
                        + open[0] + "', 1, TRUE, 1, now() - g * interval '1 second', now(), 86400000,"
                        + " now() + interval '1 day' FROM generate_series(1, " + open[1] + ") AS g");
                st.execute("INSERT INTO tool_operations_open (tool, operation_key, status, created_at) SELECT tool,"
                        + " operation_key, status, created_at FROM tool_operations WHERE status = '" + open[0] + "'");
            }
            st.execute("ANALYZE tool_operations");
            st.execute("ANALYZE tool_operations_open");
            // One delivered message per finished operation: the purge's NOT EXISTS probes the outbox for
            // each expired record, which must be an index read once the outbox has rows.
            st.execute("INSERT INTO tool_operation_outbox (tool, operation_key, seq, destination, message, status,"
                    + " attempts, claim_token, next_attempt_at, created_at, delivered_at) SELECT 'refund', 'fill:' || g,"
                    + " 1, 'mail', '{}', 'delivered', 1, 1, now(), now(), now() FROM generate_series(1, 20000) AS g");
            st.execute("ANALYZE tool_operation_attempt_log");
            st.execute("ANALYZE tool_operation_outbox");
        }
    }

    /** The first statement the store prepared whose SQL contains {@code fragment}. */
    private Recorded recorded(String fragment) {
        return recorded.stream().filter(r -> r.sql().contains(fragment)).findFirst()
                .orElseThrow(() -> new AssertionError("no statement with " + fragment + " in " + recorded));
    }

    private String plan(StringBuilder out, String title, String fragment) throws SQLException {
        Recorded statement = recorded(fragment);
        StringBuilder plan = new StringBuilder();
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("EXPLAIN (COSTS OFF) "
                + statement.sql())) {
            for (Map.Entry<Integer, Object> p : statement.params().entrySet()) {
                ps.setObject(p.getKey(), p.getValue());
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
        }
        out.append("-- ").append(title).append('\n').append(statement.sql()).append("\n\n").append(plan)
                .append('\n');
        return plan.toString();
    }

    /** How many rows the analysed claim inserted, as its {@code Insert} node reports. */
    private static int claimedRows(String plan) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Tuples Inserted: (\\d+)").matcher(plan);
        if (!m.find()) {
            throw new AssertionError("no insert in " + plan);
        }
        return Integer.parseInt(m.group(1));
    }

    /**
     * The plan of the recorded statement as it ran ({@code EXPLAIN ANALYZE}), in a transaction that
     * is rolled back. {@code key}, when given, replaces every bound operation key.
     */
    private String analyzedPlan(StringBuilder out, String title, String fragment, String key) throws SQLException {
        Recorded statement = recorded(fragment);
        StringBuilder plan = new StringBuilder();
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) "
                    + statement.sql())) {
                for (Map.Entry<Integer, Object> p : statement.params().entrySet()) {
                    boolean isKey = key != null && "k".equals(p.getValue());
                    ps.setObject(p.getKey(), isKey ? key : p.getValue());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        plan.append(rs.getString(1)).append('\n');
                    }
                }
            } finally {
                c.rollback();
            }
        }
        out.append("-- ").append(title).append('\n').append(statement.sql()).append("\n\n").append(plan)
                .append('\n');
        return plan.toString();
    }

    /** Real connections that record each prepared statement with the parameters set on it. */
    private DataSource recording() {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getConnection" -> connection(connect());
                    case "getLogWriter" -> null;
                    case "getLoginTimeout" -> 0;
                    case "getParentLogger" -> Logger.getGlobal();
                    case "isWrapperFor" -> false;
                    case "toString" -> "recording data source";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private Connection connection(Connection real) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    if (method.getName().equals("prepareStatement") && args[0] instanceof String sql) {
                        Recorded r = new Recorded(sql, new TreeMap<>());
                        synchronized (recorded) {
                            recorded.add(r);
                        }
                        PreparedStatement ps = (PreparedStatement) result;
                        return Proxy.newProxyInstance(getClass().getClassLoader(),
                                new Class<?>[] {PreparedStatement.class}, (p, m, a) -> {
                                    if (m.getName().startsWith("set") && a != null && a.length >= 2
                                            && a[0] instanceof Integer index && !r.params().containsKey(index)) {
                                        r.params().put(index, m.getName().equals("setNull") ? null : a[1]);
                                    }
                                    return invoke(ps, m, a);
                                });
                    }
                    return result;
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
