package io.idempotent.benchmarks.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * What the contenders' tables went through, from PostgreSQL's own statistics: rows inserted and
 * updated, how many updates were HOT (no index touched: possible only when no indexed column
 * changes and the page has room), and the number of indexes every non-HOT write must change.
 */
final class TableWrites {

    /** How many times a table's rows were updated, and how many of those updates were HOT. */
    record Updates(long updated, long hot) {
        static final Updates NONE = new Updates(0, 0);

        Updates since(Updates before) {
            return new Updates(updated - before.updated, hot - before.hot);
        }

        /** "0.97 (9700 of 10000)", or "–" when nothing was updated. */
        @Override
        public String toString() {
            return updated == 0 ? "–" : String.format(java.util.Locale.ROOT, "%.2f (%d of %d)", ratio(), hot,
                    updated);
        }

        double ratio() {
            return updated == 0 ? Double.NaN : hot / (double) updated;
        }
    }

    private TableWrites() {
    }

    /**
     * The updates of {@code table} so far, with every connection of {@code pool} ({@code size}
     * connections) made to report its statistics first: PostgreSQL 14's backends send them at most
     * every 500 ms, and only when a transaction ends, so an idle connection of the pool would
     * otherwise keep a window's last updates until the next window. Costs about 0.6 s.
     */
    static Updates updates(DataSource pool, int size, String table) throws SQLException, InterruptedException {
        if (table == null) {
            return Updates.NONE;
        }
        Thread.sleep(550);
        List<Connection> held = new ArrayList<>();
        try {
            for (int i = 0; i < size; i++) {
                Connection c = pool.getConnection();
                held.add(c);
                try (Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                }
            }
            try (Statement st = held.get(0).createStatement()) {
                st.execute("SELECT pg_stat_clear_snapshot()");
            }
            try (Statement st = held.get(0).createStatement();
                    ResultSet rs = st.executeQuery("SELECT COALESCE(sum(n_tup_upd), 0), COALESCE(sum(n_tup_hot_upd), 0)"
                            + " FROM pg_stat_user_tables WHERE relname = '" + table + "'")) {
                rs.next();
                return new Updates(rs.getLong(1), rs.getLong(2));
            }
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
    }

    /** One Markdown row per table of the benchmark's database. */
    static List<String> of(DataSource dataSource) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            // The statistics collector reports with a delay; this makes it send what it has.
            st.execute("SELECT pg_stat_force_next_flush()");
        } catch (SQLException e) {
            // PostgreSQL 14 has no such function; its collector is at most half a second behind.
        }
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT s.relname, s.n_tup_ins, s.n_tup_upd, s.n_tup_hot_upd,"
                        + " (SELECT count(*) FROM pg_index i WHERE i.indrelid = s.relid)"
                        + " FROM pg_stat_user_tables s ORDER BY s.relname")) {
            while (rs.next()) {
                rows.add("| " + rs.getString(1) + " | " + rs.getLong(2) + " | " + rs.getLong(3) + " | "
                        + rs.getLong(4) + " | " + rs.getLong(5) + " |");
            }
        }
        return rows;
    }
}
