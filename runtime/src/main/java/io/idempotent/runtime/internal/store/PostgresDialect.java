package io.idempotent.runtime.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * PostgreSQL: the claim is one statement, {@code INSERT ... ON CONFLICT DO NOTHING}, that also
 * reads the existing row in the same round trip.
 */
final class PostgresDialect implements Dialect {

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String nowPlusMillis() {
        return "(CURRENT_TIMESTAMP + CAST(? AS BIGINT) * INTERVAL '1 millisecond')";
    }

    @Override
    public ClaimResult claim(Connection connection, ClaimRequest request, JdbcOperationStore.Rows rows)
            throws SQLException {
        String sql = "WITH ins AS (" + JdbcOperationStore.insertSql(this) + " ON CONFLICT (tool, operation_key) DO NOTHING"
                + " RETURNING lease_token)"
                + " SELECT (SELECT count(*) FROM ins) AS inserted, " + rows.columns("t.")
                + " FROM (VALUES (1)) AS one(x)"
                + " LEFT JOIN tool_operations t ON t.tool = ? AND t.operation_key = ? AND NOT EXISTS (SELECT 1 FROM ins)";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            int next = JdbcOperationStore.bindInsert(ps, request);
            ps.setString(next, request.tool());
            ps.setString(next + 1, request.key());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getLong("inserted") == 1) {
                    return new ClaimResult.Inserted(1);
                }
                if (rs.getString("operation_key") != null) {
                    return new ClaimResult.Existing(rows.read(rs));
                }
            }
        }
        // The conflicting row was committed after this statement's snapshot was taken, so the
        // statement could not see it; a new statement can.
        return null;
    }
}
