package io.idempotent.benchmarks.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The hand-written floor: what a store that keeps a status, a fencing token and a result needs at
 * least. A fresh call is one {@code INSERT ... ON CONFLICT DO NOTHING RETURNING} claim and one
 * {@code UPDATE} completion fenced by the lease token; a replay is one {@code SELECT} of the row.
 * Each statement is its own auto-commit transaction, as in the runtime. The table has the
 * primary key and no other index.
 */
final class FloorContender implements Contender {

    private static final String TOOL = "refund";
    /** A SHA-256 in hex and a result of the size the runtime stores, so rows weigh alike. */
    private static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    private static final String RESULT = "{\"orderId\":\"%s\",\"cents\":100}";

    private static final String CLAIM = "INSERT INTO floor_operations (tool, operation_key, payload_hash, status,"
            + " lease_token, lease_until, created_at, updated_at)"
            + " VALUES (?, ?, ?, 'in_progress', 1, now() + interval '30 seconds', now(), now())"
            + " ON CONFLICT DO NOTHING RETURNING lease_token";
    private static final String COMPLETE = "UPDATE floor_operations SET status = 'completed', result_json = ?,"
            + " lease_until = NULL, updated_at = now()"
            + " WHERE tool = ? AND operation_key = ? AND status = 'in_progress' AND lease_token = ?";
    private static final String READ = "SELECT status, payload_hash, result_json FROM floor_operations"
            + " WHERE tool = ? AND operation_key = ?";

    private final DataSource dataSource;

    FloorContender(DataSource dataSource) throws SQLException {
        this.dataSource = dataSource;
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS floor_operations ("
                    + " tool VARCHAR(200) NOT NULL, operation_key VARCHAR(512) NOT NULL,"
                    + " payload_hash CHAR(64) NOT NULL, status VARCHAR(32) NOT NULL, lease_token BIGINT NOT NULL,"
                    + " lease_until TIMESTAMP WITH TIME ZONE, result_json TEXT,"
                    + " created_at TIMESTAMP WITH TIME ZONE NOT NULL, updated_at TIMESTAMP WITH TIME ZONE NOT NULL,"
                    + " PRIMARY KEY (tool, operation_key))");
        }
    }

    @Override
    public String name() {
        return "floor";
    }

    @Override
    public String updatedTable() {
        return "floor_operations";
    }

    @Override
    public void fresh(String id) throws SQLException {
        String key = "refund:" + id;
        long token;
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
                ps.setString(1, TOOL);
                ps.setString(2, key);
                ps.setString(3, HASH);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("floor: " + key + " was not new");
                    }
                    token = rs.getLong(1);
                }
            }
            try (PreparedStatement ps = c.prepareStatement(COMPLETE)) {
                ps.setString(1, RESULT.formatted(id));
                ps.setString(2, TOOL);
                ps.setString(3, key);
                ps.setLong(4, token);
                if (ps.executeUpdate() != 1) {
                    throw new IllegalStateException("floor: the completion of " + key + " lost its lease");
                }
            }
        }
    }

    @Override
    public void replay(String id) throws SQLException {
        String key = "refund:" + id;
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(READ)) {
            ps.setString(1, TOOL);
            ps.setString(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !"completed".equals(rs.getString(1)) || !HASH.equals(rs.getString(2))
                        || rs.getString(3) == null) {
                    throw new IllegalStateException("floor: " + key + " is not a completed operation");
                }
            }
        }
    }
}
