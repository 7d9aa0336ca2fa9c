package io.idempotent.benchmarks.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * What each statement cost the server, from {@code pg_stat_statements} (on with
 * {@code -Dbench.statements=on}): calls, mean execution time, rows per call and shared buffers
 * touched per call, the most expensive first. The time is the server's execution only, not
 * planning, parsing or the round trip.
 */
final class StatementStats {

    private StatementStats() {
    }

    static boolean enabled() {
        return Settings.text("bench.statements", "off").equals("on");
    }

    /** Creates the extension in the pool's database and empties its counters. */
    static void reset(DataSource dataSource) throws SQLException {
        if (!enabled()) {
            return;
        }
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
        }
    }

    /** Markdown rows of the {@code limit} statements with the most execution time since {@link #reset}. */
    static List<String> top(DataSource dataSource, int limit) throws SQLException {
        List<String> rows = new ArrayList<>();
        if (!enabled()) {
            return rows;
        }
        rows.add("| statement (first 110 characters) | calls | mean µs | total s | rows per call |"
                + " shared blocks per call (hit + read) | WAL bytes per call |");
        rows.add("|---|---|---|---|---|---|---|");
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT regexp_replace(left(query, 110), '\\s+', ' ', 'g'), calls,"
                        + " mean_exec_time, total_exec_time, rows, shared_blks_hit + shared_blks_read, wal_bytes"
                        + " FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database"
                        + " WHERE datname = current_database()) AND calls > 100 ORDER BY total_exec_time DESC LIMIT "
                        + limit)) {
            while (rs.next()) {
                long calls = rs.getLong(2);
                rows.add(String.format(Locale.ROOT, "| `%s` | %d | %.1f | %.1f | %.2f | %.1f | %.0f |",
                        rs.getString(1).replace("|", "\\|").replace("`", "'"), calls, rs.getDouble(3) * 1000,
                        rs.getDouble(4) / 1000, rs.getLong(5) / (double) calls, rs.getLong(6) / (double) calls,
                        rs.getDouble(7) / calls));
            }
        }
        return rows;
    }
}
