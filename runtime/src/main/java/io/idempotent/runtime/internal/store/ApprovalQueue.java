package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.Rows.instant;
import static io.idempotent.runtime.internal.store.StoreDatabase.inTransaction;
import static io.idempotent.runtime.internal.store.ClaimFate.MAY_HAVE_CLAIMED;
import static io.idempotent.runtime.internal.store.ClaimFate.NOTHING_CLAIMED;
import static io.idempotent.runtime.internal.store.StoreTables.APPROVALS;
import static io.idempotent.runtime.internal.store.StoreTables.ID;
import static io.idempotent.runtime.internal.store.StoreTables.LOG;
import static io.idempotent.runtime.internal.store.StoreTables.LOG_COLUMNS;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.StoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The approval gates of one store: a tool's first call that needs a person records its operation
 * {@code awaiting_approval} with the request beside it in {@link StoreTables#APPROVALS}; an
 * operator's decision moves it to {@code approved} (its {@code lease_until} then holds the grant's
 * end) or {@code denied}, with the decision and its attempt-log row in the same transaction; a
 * grant that lapsed unused goes back to {@code awaiting_approval}. Every change is guarded like
 * the {@link OperationStateMachine}'s: by the status and lease token the caller read, so of two
 * decisions made at once exactly one is recorded.
 */
final class ApprovalQueue {

    /** How often a request re-reads a row that a concurrent insert had not yet made visible. */
    private static final int VISIBILITY_RETRIES = 50;

    /** What the queue lists: never decided, or granted and lapsed unused (not yet seen by a call). */
    private static final String PENDING = "(o.status = 'awaiting_approval' OR (o.status = 'approved'"
            + " AND o.lease_until <= CURRENT_TIMESTAMP))";

    /** A grant that ended unused and is not yet recorded as lapsed. */
    private static final String LAPSED = "o.status = 'approved' AND o.lease_until <= CURRENT_TIMESTAMP";

    /** The detail of every {@code APPROVAL_EXPIRED} row; who found the lapse is added after it. */
    static final String LAPSE_DETAIL = "the grant expired before a call used it";

    /** The most lapses one read or purge records; the next records the rest. */
    private static final int LAPSES_AT_ONCE = 1000;

    private static final String JOINED = " FROM " + APPROVALS + " a JOIN tool_operations o ON o.tool = a.tool"
            + " AND o.operation_key = a.operation_key WHERE " + PENDING;

    private final StoreDatabase db;
    private final Dialect dialect;
    private final Rows rows;
    /** Whether {@link StoreTables#OPEN} is kept (it holds no row of an operation awaiting approval). */
    private final boolean open;

    ApprovalQueue(StoreDatabase db) {
        this.db = db;
        this.dialect = db.dialect();
        this.rows = db.rows();
        this.open = dialect.keepsOpenOperations();
    }

    /** See {@link OperationStore#requestApproval}. */
    ClaimResult request(ClaimRequest r, ApprovalRequest approval) {
        db.ensureSchema(NOTHING_CLAIMED);
        String insert = "INSERT INTO tool_operations (tool, operation_key, payload_hash, payload_json, status,"
                + " lease_token, lease_until, effect_started, attempts, created_at, updated_at, retention_ms,"
                + " expires_at, attempt_id, attempt_outcome, attempt_token, attempt_detail, attempt_started_at,"
                + " attempt_ended_at) VALUES (?, ?, ?, ?, 'awaiting_approval', 1, NULL, FALSE, 0, CURRENT_TIMESTAMP,"
                + " CURRENT_TIMESTAMP, ?, " + dialect.nowPlusMillis() + ", ?, 'APPROVAL_REQUESTED', 1, ?,"
                + " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                + (dialect.dataModifyingWith() ? " ON CONFLICT ON CONSTRAINT tool_operations_pk DO NOTHING" : "");
        Params insertParams = new Params().str(r.tool()).str(r.key()).str(r.payloadHash()).str(r.payloadJson())
                .lng(r.retention().toMillis()).lng(r.retention().toMillis()).str(r.attemptId())
                .str(approval.detail());
        // A request of an operation deleted by hand may have left its approval row: the new one replaces it.
        String requested = "INSERT INTO " + APPROVALS + " (tool, operation_key, requested_step, requested_by,"
                + " requested_at, validity_ms) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, ?)";
        Params requestedParams = new Params().str(r.tool()).str(r.key()).str(approval.step())
                .str(approval.requestedBy()).lng(approval.validity().toMillis());
        try (Connection c = db.connection()) {
            for (int i = 0; i < VISIBILITY_RETRIES; i++) {
                boolean inserted = inTransaction(c, () -> {
                    if (!insertedOne(c, insert, insertParams)) {
                        return false;
                    }
                    execute(c, "DELETE FROM " + APPROVALS + " WHERE " + ID, new Params().str(r.tool()).str(r.key()));
                    execute(c, requested, requestedParams);
                    return true;
                });
                if (inserted) {
                    return new ClaimResult.Inserted(1, 0, null);
                }
                var existing = rows.find(c, r.tool(), r.key());
                if (existing.isPresent()) {
                    return new ClaimResult.Existing(existing.get());
                }
            }
            throw new StoreUnavailableException(r.tool(), r.key(), db.described() + ": the key kept conflicting"
                    + " with a row that never became visible; nothing was recorded");
        } catch (SQLException e) {
            throw db.failure("record the approval request in", e, MAY_HAVE_CLAIMED);
        }
    }

    /** Whether {@code insert} wrote its row; false when the key's row exists (PostgreSQL: none written; H2: refused). */
    private boolean insertedOne(Connection c, String insert, Params params) throws SQLException {
        try {
            return execute(c, insert, params) == 1;
        } catch (SQLException e) {
            if (!dialect.dataModifyingWith() && "23505".equals(e.getSQLState())) {
                return false;
            }
            throw e;
        }
    }

    /**
     * See {@link OperationStore#decideApproval}. A grant that lapsed unused (the operator read it
     * {@code approved}) is put back to {@code awaiting_approval} with its {@code APPROVAL_EXPIRED}
     * row first, in the same transaction, so the history shows the expiry before the new decision.
     */
    Transition decide(ApprovalDecision d) {
        String what = d.granted() ? "grant an approval" : "deny an approval";
        db.ensureSchema();
        try (Connection c = db.connection()) {
            return inTransaction(c, () -> {
                long validityMillis;
                try (PreparedStatement ps = c.prepareStatement("SELECT validity_ms FROM " + APPROVALS + " WHERE " + ID
                        + " FOR UPDATE")) {
                    new Params().str(d.tool()).str(d.key()).bind(ps);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            return new Transition.LostRace(what);
                        }
                        validityMillis = rs.getLong(1);
                    }
                }
                long token = d.expectedToken();
                if (d.expectedStatus() == OperationStatus.APPROVED) {
                    // Only a grant that lapsed unused is decided again; the lapse is recorded first.
                    if (!(lapse(c, d.tool(), d.key(), token, d.attemptId(), LAPSE_DETAIL
                            + " (found when an operator decided again)") instanceof Transition.Applied lapsed)) {
                        return new Transition.LostRace(what);
                    }
                    token = lapsed.leaseToken();
                } else if (d.expectedStatus() != OperationStatus.AWAITING_APPROVAL) {
                    return new Transition.LostRace(what);
                }
                Guard guard = Guard.of(d.tool(), d.key())
                        .status(OperationStatus.AWAITING_APPROVAL).token(token);
                String set = d.granted()
                        ? "status = 'approved', lease_until = " + dialect.nowPlusMillis()
                        : "status = 'denied', lease_until = NULL, expires_at = GREATEST(expires_at, "
                                + dialect.nowPlusMillis("retention_ms") + ")";
                Params setParams = d.granted() ? new Params().lng(validityMillis) : new Params();
                Transition.Applied changed;
                try (PreparedStatement ps = c.prepareStatement(dialect.returning("UPDATE tool_operations SET " + set
                        + ", lease_token = lease_token + 1, updated_at = CURRENT_TIMESTAMP WHERE " + guard.sql(),
                        "lease_token, attempts, lease_until"))) {
                    setParams.then(guard.params()).bind(ps);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            return new Transition.LostRace(what);
                        }
                        changed = new Transition.Applied(rs.getLong(1), rs.getInt(2), instant(rs, 3));
                    }
                }
                execute(c, "UPDATE " + APPROVALS + " SET decision = ?, decided_by = ?, decision_reason = ?,"
                        + " decided_at = CURRENT_TIMESTAMP WHERE " + ID, new Params().str(d.granted() ? "granted"
                        : "denied").str(d.approver()).str(d.reason()).str(d.tool()).str(d.key()));
                execute(c, "INSERT INTO " + LOG + " (" + LOG_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, NULL, ?,"
                        + " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)", new Params().str(d.attemptId()).str(d.tool())
                        .str(d.key()).str((d.granted() ? AttemptOutcome.APPROVAL_GRANTED
                                : AttemptOutcome.APPROVAL_DENIED).name())
                        .lng(changed.leaseToken()).str(d.payloadHash()).str(d.detail()));
                return changed;
            });
        } catch (SQLException e) {
            throw db.unavailable(what + " in", e);
        }
    }

    /** See {@link OperationStore#expireApproval}. */
    Transition expire(String tool, String key, long expectedToken, String attemptId) {
        db.ensureSchema();
        try (Connection c = db.connection()) {
            return inTransaction(c, () -> lapse(c, tool, key, expectedToken, attemptId, LAPSE_DETAIL));
        } catch (SQLException e) {
            throw db.unavailable("expire a grant in", e);
        }
    }

    /**
     * See {@link OperationStore#expireLapsedGrants}: each grant that lapsed unused, oldest request
     * first, at most {@link #LAPSES_AT_ONCE}, through {@link #expire}'s guarded statement, so one
     * that a call or a decision records meanwhile is not recorded twice.
     */
    List<String> expireLapsed(String foundBy) {
        db.ensureSchema();
        List<String[]> lapsed = new ArrayList<>();
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement("SELECT o.tool,"
                + " o.operation_key, o.lease_token FROM " + APPROVALS + " a JOIN tool_operations o ON o.tool = a.tool"
                + " AND o.operation_key = a.operation_key WHERE " + LAPSED + " ORDER BY a.requested_at"
                + " FETCH FIRST " + LAPSES_AT_ONCE + " ROWS ONLY"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                lapsed.add(new String[] {rs.getString(1), rs.getString(2), Long.toString(rs.getLong(3))});
            }
        } catch (SQLException e) {
            throw db.unavailable("find the lapsed grants in", e);
        }
        List<String> tools = new ArrayList<>();
        for (String[] grant : lapsed) {
            try (Connection c = db.connection()) {
                Transition t = inTransaction(c, () -> lapse(c, grant[0], grant[1], Long.parseLong(grant[2]),
                        "lapse-" + UUID.randomUUID(), LAPSE_DETAIL + " (found by " + foundBy + ")"));
                if (t.applied()) {
                    tools.add(grant[0]);
                }
            } catch (SQLException e) {
                throw db.unavailable("expire a grant in", e);
            }
        }
        return tools;
    }

    /**
     * The one place a lapse is recorded: an {@code approved} operation whose grant ended unused
     * goes back to {@code awaiting_approval}, its request row is marked expired, and the attempt
     * log gets its {@code APPROVAL_EXPIRED} row, on {@code c}, in the caller's transaction; only
     * while the operation is as read ({@code approved}, {@code expectedToken}, lapsed by the
     * database's clock), so a lapse is recorded once, by whoever comes first.
     */
    private Transition lapse(Connection c, String tool, String key, long expectedToken, String attemptId,
            String detail) throws SQLException {
        Guard guard = Guard.of(tool, key)
                .status(OperationStatus.APPROVED).token(expectedToken).leaseExpired();
        Transition.Applied changed;
        try (PreparedStatement ps = c.prepareStatement(dialect.returning("UPDATE tool_operations SET"
                + " status = 'awaiting_approval', lease_token = lease_token + 1, lease_until = NULL,"
                + " updated_at = CURRENT_TIMESTAMP WHERE " + guard.sql(), "lease_token, attempts, lease_until"))) {
            guard.params().bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new Transition.LostRace("expire a grant");
                }
                changed = new Transition.Applied(rs.getLong(1), rs.getInt(2), null);
            }
        }
        execute(c, "UPDATE " + APPROVALS + " SET decision = 'expired' WHERE " + ID, new Params().str(tool).str(key));
        execute(c, "INSERT INTO " + LOG + " (" + LOG_COLUMNS + ") SELECT ?, tool, operation_key, ?, lease_token,"
                + " payload_hash, NULL, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM tool_operations WHERE " + ID,
                new Params().str(attemptId).str(AttemptOutcome.APPROVAL_EXPIRED.name()).str(detail).str(tool)
                        .str(key));
        return changed;
    }

    /** See {@link OperationStore#pendingApprovals}. */
    List<PendingApproval> pending(String tool, int offset, int limit) {
        db.ensureSchema();
        String sql = "SELECT o.tool, o.operation_key, o.payload_hash, o.payload_json, a.requested_step,"
                + " a.requested_by, a.requested_at, o.status, a.decision, a.decided_by" + JOINED
                + (tool == null ? "" : " AND a.tool = ?")
                + " ORDER BY a.requested_at, a.tool, a.operation_key OFFSET ? ROWS FETCH NEXT ? ROWS ONLY";
        Params params = tool == null ? new Params() : new Params().str(tool);
        params.lng(offset).lng(limit);
        List<PendingApproval> pending = new ArrayList<>();
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            params.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    boolean expiredGrant = "approved".equals(rs.getString("status"))
                            || "expired".equals(rs.getString("decision"));
                    pending.add(new PendingApproval(rs.getString("tool"), rs.getString("operation_key"),
                            rs.getString("payload_hash"), rs.getString("payload_json"), rs.getString("requested_step"),
                            rs.getString("requested_by"), instant(rs, "requested_at"), expiredGrant,
                            expiredGrant ? rs.getString("decided_by") : null));
                }
            }
            return pending;
        } catch (SQLException e) {
            throw db.unavailable("list the approval queue of", e);
        }
    }

    /** See {@link OperationStore#countPendingApprovals}. */
    Map<String, Long> countPending() {
        db.ensureSchema();
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement("SELECT a.tool, COUNT(*)"
                + JOINED + " GROUP BY a.tool ORDER BY a.tool"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                counts.put(rs.getString(1), rs.getLong(2));
            }
            return counts;
        } catch (SQLException e) {
            throw db.unavailable("count the approval queue of", e);
        }
    }

    private static int execute(Connection c, String sql, Params params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            params.bind(ps);
            return ps.executeUpdate();
        }
    }
}
