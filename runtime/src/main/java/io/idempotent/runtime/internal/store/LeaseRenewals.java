package io.idempotent.runtime.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Renews many leases in one fenced statement: each named attempt's lease is extended only while
 * its operation is in progress under that attempt's lease token and attempt id and its lease has
 * not expired, exactly the guard of one attempt's heartbeat
 * ({@link OperationStateMachine#heartbeat}), and the statement returns the attempts it renewed, so
 * each learns whether its own lease was kept. PostgreSQL joins the table with a {@code VALUES}
 * list (an index lookup per key); H2 names the rows with a row-value {@code IN} list of their
 * primary key (which its planner looks up in the index) and fences with a second one. At most
 * {@link #PER_STATEMENT} keys go in one statement, so the pending-calls bound (1024) costs four.
 */
final class LeaseRenewals {

    /** Keys per statement: 4 parameters each, far below either driver's limit, and a short lock list. */
    static final int PER_STATEMENT = 256;

    private final StoreDatabase db;
    /** The renewals' own connections, or the store's. */
    private final DataSource connections;

    LeaseRenewals(StoreDatabase db, DataSource connections) {
        this.db = db;
        this.connections = connections;
    }

    /** Renews {@code leases} to a full {@code lease} each; returns those renewed. */
    Set<LeaseRenewal> renew(List<LeaseRenewal> leases, Duration lease) {
        Set<LeaseRenewal> renewed = new HashSet<>();
        if (leases.isEmpty()) {
            return renewed;
        }
        db.ensureSchema();
        try (Connection c = db.connection(connections)) {
            for (int from = 0; from < leases.size(); from += PER_STATEMENT) {
                List<LeaseRenewal> chunk = leases.subList(from, Math.min(leases.size(), from + PER_STATEMENT));
                renewChunk(c, chunk, lease, renewed);
            }
        } catch (SQLException e) {
            throw db.unavailable("extend the leases of " + leases.size() + " running attempts in", e);
        }
        return renewed;
    }

    private void renewChunk(Connection c, List<LeaseRenewal> chunk, Duration lease, Set<LeaseRenewal> renewed)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql(chunk.size()))) {
            int i = 1;
            ps.setLong(i++, lease.toMillis());
            if (!db.dialect().dataModifyingWith()) {
                for (LeaseRenewal r : chunk) {
                    ps.setString(i++, r.tool());
                    ps.setString(i++, r.key());
                }
            }
            for (LeaseRenewal r : chunk) {
                ps.setString(i++, r.tool());
                ps.setString(i++, r.key());
                ps.setLong(i++, r.leaseToken());
                ps.setString(i++, r.attemptId());
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    renewed.add(new LeaseRenewal(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4)));
                }
            }
        }
    }

    /** The statement for {@code n} keys; its first parameter is the lease in milliseconds. */
    private String sql(int n) {
        Dialect dialect = db.dialect();
        String columns = "tool, operation_key, lease_token, attempt_id";
        if (dialect.dataModifyingWith()) {
            String values = String.join(", ", java.util.Collections.nCopies(n, "(?, ?, CAST(? AS BIGINT), ?)"));
            String t = "tool_operations.";
            return "UPDATE tool_operations SET lease_until = " + dialect.nowPlusMillis() + " FROM (VALUES " + values
                    + ") AS v (tool, operation_key, lease_token, attempt_id) WHERE " + t + "tool = v.tool"
                    + " AND " + t + "operation_key = v.operation_key AND " + t + "lease_token = v.lease_token"
                    + " AND " + t + "attempt_id = v.attempt_id AND " + t + "status = 'in_progress'"
                    + " AND " + t + "lease_until > CURRENT_TIMESTAMP"
                    + " RETURNING " + t + "tool, " + t + "operation_key, " + t + "lease_token, " + t + "attempt_id";
        }
        // H2 finds rows through its primary key only for an IN list of exactly its columns; the
        // second list is the fence.
        String keys = String.join(", ", java.util.Collections.nCopies(n, "(?, ?)"));
        String rows = String.join(", ", java.util.Collections.nCopies(n, "(?, ?, ?, ?)"));
        return dialect.returning("UPDATE tool_operations SET lease_until = " + dialect.nowPlusMillis() + " WHERE"
                + " status = 'in_progress' AND lease_until > CURRENT_TIMESTAMP AND (tool, operation_key) IN (" + keys
                + ") AND (" + columns + ") IN (" + rows + ")", columns);
    }
}
