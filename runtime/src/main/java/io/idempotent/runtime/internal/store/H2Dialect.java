package io.idempotent.runtime.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * H2: a plain {@code INSERT}; the primary key rejects a second claimer, whose caller then reads
 * the existing row.
 */
final class H2Dialect implements Dialect {

    @Override
    public String name() {
        return "h2";
    }

    @Override
    public String nowPlusMillis() {
        return "DATEADD(MILLISECOND, CAST(? AS BIGINT), CURRENT_TIMESTAMP)";
    }

    @Override
    public ClaimResult claim(Connection connection, ClaimRequest request, JdbcOperationStore.Rows rows)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(JdbcOperationStore.insertSql(this))) {
            JdbcOperationStore.bindInsert(ps, request);
            ps.executeUpdate();
            return new ClaimResult.Inserted(1);
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState())) {
                return null;
            }
            throw e;
        }
    }
}
