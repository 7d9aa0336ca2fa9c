package io.idempotent.benchmarks.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Fills the runtime's real tables with generated completed operations (each with its attempt on
 * its record, and one replay in the attempt log) by bulk {@code INSERT ... SELECT ... FROM generate_series}, not through the API. The column list
 * is read from the database, so the fill follows the schema the runtime created; a column this
 * class has no value for fails the fill (add it here) rather than being left to its default.
 */
final class TableFill {

    private static final int CHUNK = 1_000_000;

    /** Values by column name; {@code g} is the row's number. Keys are spread like hashes. */
    private static final Map<String, String> OPERATIONS = values(
            "operation_key", "'refund:fill-' || md5(g::text)",
            "tool", "'refund'",
            "payload_hash", "md5(g::text) || md5((g + 1)::text)",
            "payload_json", "'{\"cents\":100,\"currency\":\"EUR\",\"invoiceId\":\"fill-' || md5(g::text) || '\"}'",
            "status", "'completed'",
            "lease_token", "1",
            "lease_until", "NULL",
            "effect_started", "TRUE",
            "downstream_id", "NULL",
            "result_json", "'{\"orderId\":\"fill-' || md5(g::text) || '\",\"cents\":100}'",
            "error_json", "NULL",
            "attempts", "1",
            "released_by", "NULL",
            "created_at", "now() - (g % 86400) * interval '1 second'",
            "updated_at", "now() - (g % 86400) * interval '1 second'",
            "expires_at", "now() + interval '30 days'",
            "retention_ms", "2592000000",
            "attempt_id", "md5(('attempt' || g)::text)",
            "attempt_outcome", "'COMPLETED'",
            "attempt_token", "1",
            "attempt_downstream_id", "NULL",
            "attempt_detail", "NULL",
            "attempt_started_at", "now() - (g % 86400) * interval '1 second'",
            "attempt_ended_at", "now() - (g % 86400) * interval '1 second'");

    private static final Map<String, String> ATTEMPTS = values(
            "attempt_id", "md5(('replay' || g)::text)",
            "operation_key", "'refund:fill-' || md5(g::text)",
            "tool", "'refund'",
            "outcome", "'REPLAYED'",
            "lease_token", "0",
            "payload_hash", "md5(g::text) || md5((g + 1)::text)",
            "downstream_id", "NULL",
            "detail", "NULL",
            "started_at", "now() - (g % 86400) * interval '1 second'",
            "ended_at", "now() - (g % 86400) * interval '1 second'");

    private TableFill() {
    }

    private static Map<String, String> values(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    /** Adds {@code rows} operations and their attempt-log rows; prints progress when {@code verbose}. */
    static void fill(DataSource dataSource, long rows, boolean verbose) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            String operations = insert(c, "tool_operations", OPERATIONS);
            String attempts = insert(c, "tool_operation_attempt_log", ATTEMPTS);
            // Building an index once after the fill is many times faster than growing it row by
            // row; the definitions are the database's own, so the same indexes come back.
            List<String> rebuild = new ArrayList<>();
            for (String table : List.of("tool_operations", "tool_operation_attempt_log")) {
                rebuild.addAll(dropIndexes(c, table));
            }
            st.execute("SET maintenance_work_mem = '256MB'");
            st.execute("SET synchronous_commit = off");
            long started = System.nanoTime();
            for (long from = 1; from <= rows; from += CHUNK) {
                long to = Math.min(rows, from + CHUNK - 1);
                for (String sql : List.of(operations, attempts)) {
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                        ps.setLong(1, from);
                        ps.setLong(2, to);
                        ps.executeUpdate();
                    }
                }
                if (verbose) {
                    System.out.printf("  filled %,d of %,d rows, %.0f s%n", to, rows,
                            (System.nanoTime() - started) / 1e9);
                }
            }
            for (String sql : rebuild) {
                st.execute(sql);
            }
            if (verbose) {
                System.out.printf("  rebuilt %d indexes and keys, %.0f s%n", rebuild.size(),
                        (System.nanoTime() - started) / 1e9);
            }
            // What autovacuum would have done by the time a table has grown this large.
            st.execute("VACUUM ANALYZE tool_operations");
            st.execute("VACUUM ANALYZE tool_operation_attempt_log");
            st.execute("CHECKPOINT");
        }
    }

    /**
     * Drops {@code table}'s indexes and its primary and unique keys; returns the statements that
     * create them again, from the database's own definitions.
     */
    private static List<String> dropIndexes(Connection c, String table) throws SQLException {
        List<String> drops = new ArrayList<>();
        List<String> creates = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
                + " WHERE conrelid = ?::regclass AND contype IN ('p', 'u')")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    drops.add("ALTER TABLE " + table + " DROP CONSTRAINT " + rs.getString(1));
                    creates.add("ALTER TABLE " + table + " ADD CONSTRAINT " + rs.getString(1) + " " + rs.getString(2));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT i.indexname, i.indexdef FROM pg_indexes i"
                + " WHERE i.tablename = ? AND i.schemaname = current_schema() AND NOT EXISTS (SELECT 1 FROM"
                + " pg_constraint k WHERE k.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))"
                + "::regclass)")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    drops.add("DROP INDEX " + rs.getString(1));
                    creates.add(rs.getString(2));
                }
            }
        }
        try (Statement st = c.createStatement()) {
            for (String drop : drops) {
                st.execute(drop);
            }
        }
        return creates;
    }

    /** The INSERT for {@code table}'s real columns, with {@code ?} and {@code ?} as the range of g. */
    private static String insert(Connection c, String table, Map<String, String> values) throws SQLException {
        List<String> columns = new ArrayList<>();
        List<String> expressions = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT column_name, is_identity, column_default"
                + " FROM information_schema.columns WHERE table_name = ? AND table_schema = current_schema()"
                + " ORDER BY ordinal_position")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String column = rs.getString(1);
                    boolean generated = "YES".equals(rs.getString(2))
                            || (rs.getString(3) != null && rs.getString(3).startsWith("nextval("));
                    if (generated) {
                        continue;
                    }
                    String value = values.get(column);
                    if (value == null) {
                        throw new IllegalStateException(table + "." + column + " is new to the benchmark's fill:"
                                + " add its generated value to TableFill");
                    }
                    columns.add(column);
                    expressions.add(value);
                }
            }
        }
        if (columns.isEmpty()) {
            throw new IllegalStateException("no table " + table + ": let the runtime create its schema first");
        }
        return "INSERT INTO " + table + " (" + String.join(", ", columns) + ") SELECT " + String.join(", ", expressions)
                + " FROM generate_series(?::bigint, ?::bigint) AS g";
    }
}
