package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.StoreTables.APPROVALS;
import static io.idempotent.runtime.internal.store.StoreTables.ID;
import static io.idempotent.runtime.internal.store.StoreTables.LOG;
import static io.idempotent.runtime.internal.store.StoreTables.OPEN;

import io.idempotent.runtime.OperationCount;
import io.idempotent.runtime.OperationStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an operator asks of one store, and its purge: an operation by its key, the oldest in a
 * state (awaiting reconciliation, in progress), the counts by tool and status, and the finished
 * operations past their retention, counted and deleted with their logs in one consistent cut.
 */
final class OperatorQueries {

    /** The operations that {@link #purgeExpired} deletes: finished, and past their retention. */
    private static final String EXPIRED = "expires_at <= CURRENT_TIMESTAMP AND status IN ('completed', 'failed_safe',"
            + " 'denied')"
            // An operation whose outbox still holds an undelivered message is kept: its row is the
            // message's context, and the message must not be lost with it.
            + " AND NOT EXISTS (SELECT 1 FROM " + StoreTables.OUTBOX + " x WHERE x.tool = tool_operations.tool AND"
            + " x.operation_key = tool_operations.operation_key AND x.status <> 'delivered')";

    private final StoreDatabase db;
    private final Rows rows;
    private final Dialect dialect;

    OperatorQueries(StoreDatabase db) {
        this.db = db;
        this.rows = db.rows();
        this.dialect = db.dialect();
    }

    Optional<StoredOperation> find(String tool, String key) {
        db.ensureSchema();
        try (Connection c = db.connection()) {
            return rows.find(c, tool, key);
        } catch (SQLException e) {
            throw db.unavailable("read", e);
        }
    }

    List<StoredOperation> awaitingReconciliation(String tool, Duration olderThan, int limit) {
        return inState(OperationStatus.NEEDS_RECONCILIATION, tool, olderThan, limit);
    }

    List<StoredOperation> inProgress(int limit) {
        return inState(OperationStatus.IN_PROGRESS, null, Duration.ZERO, limit);
    }

    /**
     * The oldest operations in {@code status} (of {@code tool}, when given, and claimed at least
     * {@code olderThan} ago by the database's clock): through the open operations' state index,
     * each record by its primary key, where the store keeps them; otherwise through the status
     * index.
     */
    private List<StoredOperation> inState(OperationStatus status, String tool, Duration olderThan, int limit) {
        db.ensureSchema();
        String sql = dialect.keepsOpenOperations()
                ? "SELECT " + rows.columns("t.") + " FROM " + OPEN + " o JOIN tool_operations t ON t.tool = o.tool"
                        + " AND t.operation_key = o.operation_key WHERE o.status = '" + status.column() + "'"
                        + (tool == null ? "" : " AND o.tool = ?") + " AND o.created_at <= " + dialect.nowPlusMillis()
                        + " ORDER BY o.created_at FETCH FIRST ? ROWS ONLY"
                : "SELECT " + rows.columns("") + " FROM tool_operations WHERE status = '" + status.column() + "'"
                        + (tool == null ? "" : " AND tool = ?") + " AND created_at <= " + dialect.nowPlusMillis()
                        + " ORDER BY created_at FETCH FIRST ? ROWS ONLY";
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            if (tool != null) {
                ps.setString(i++, tool);
            }
            ps.setLong(i++, -olderThan.toMillis());
            ps.setInt(i, limit);
            List<StoredOperation> list = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    list.add(rows.read(rs));
                }
            }
            return list;
        } catch (SQLException e) {
            throw db.unavailable("read", e);
        }
    }

    /**
     * The operations by tool and status; of one status, when given. An open status (the gauge's
     * count of those awaiting reconciliation) is counted in the open operations' state index
     * where the store keeps them, not in the records.
     */
    List<OperationCount> countByToolAndStatus(OperationStatus onlyStatus) {
        db.ensureSchema();
        boolean open = dialect.keepsOpenOperations() && (onlyStatus == OperationStatus.IN_PROGRESS
                || onlyStatus == OperationStatus.NEEDS_RECONCILIATION);
        String sql = "SELECT tool, status, COUNT(*) FROM " + (open ? OPEN : "tool_operations")
                + (onlyStatus == null ? "" : " WHERE status = ?") + " GROUP BY tool, status ORDER BY tool, status";
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            if (onlyStatus != null) {
                ps.setString(1, onlyStatus.column());
            }
            List<OperationCount> list = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    list.add(new OperationCount(rs.getString(1), OperationStatus.fromColumn(rs.getString(2)),
                            rs.getLong(3)));
                }
            }
            return list;
        } catch (SQLException e) {
            throw db.unavailable("count the operations in", e);
        }
    }

    int countExpired() {
        db.ensureSchema();
        try (Connection c = db.connection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM tool_operations WHERE " + EXPIRED)) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw db.unavailable("count expired operations in", e);
        }
    }

    /**
     * One consistent cut: the records deleted are exactly those whose logs are deleted, decided
     * once by one clock. PostgreSQL does it in one statement; H2 in one transaction that deletes
     * the logs of the records its first statement deleted.
     */
    int purgeExpired() {
        String expired = "DELETE FROM tool_operations WHERE " + EXPIRED;
        db.ensureSchema();
        try (Connection c = db.connection()) {
            if (dialect.dataModifyingWith()) {
                try (PreparedStatement ps = c.prepareStatement("WITH gone AS (" + dialect.deleted(expired,
                        "tool, operation_key") + "), logs AS (DELETE FROM " + LOG + " WHERE (tool,"
                        + " operation_key) IN (SELECT tool, operation_key FROM gone)), approvals AS (DELETE FROM "
                        + APPROVALS + " WHERE (tool, operation_key) IN (SELECT tool, operation_key FROM gone)),"
                        + " outbox AS (DELETE FROM " + StoreTables.OUTBOX + " WHERE (tool, operation_key) IN (SELECT"
                        + " tool, operation_key FROM gone)) SELECT count(*) FROM gone");
                        ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
            return purgeInOneTransaction(c, expired);
        } catch (SQLException e) {
            throw db.unavailable("purge expired operations from", e);
        }
    }

    private int purgeInOneTransaction(Connection c, String expired) throws SQLException {
        return StoreDatabase.inTransaction(c, () -> {
            int purged = 0;
            try (PreparedStatement gone = c.prepareStatement(dialect.deleted(expired, "tool, operation_key"));
                    PreparedStatement logs = c.prepareStatement("DELETE FROM " + LOG + " WHERE " + ID);
                    PreparedStatement approvals = c.prepareStatement("DELETE FROM " + APPROVALS + " WHERE " + ID);
                    PreparedStatement outbox = c.prepareStatement("DELETE FROM " + StoreTables.OUTBOX + " WHERE " + ID);
                    ResultSet rs = gone.executeQuery()) {
                while (rs.next()) {
                    Params key = new Params().str(rs.getString(1)).str(rs.getString(2));
                    key.bind(logs);
                    logs.addBatch();
                    key.bind(approvals);
                    approvals.addBatch();
                    key.bind(outbox);
                    outbox.addBatch();
                    purged++;
                }
                if (purged > 0) {
                    logs.executeBatch();
                    approvals.executeBatch();
                    outbox.executeBatch();
                }
            }
            return purged;
        });
    }
}
