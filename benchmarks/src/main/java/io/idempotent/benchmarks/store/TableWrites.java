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

    private TableWrites() {
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
