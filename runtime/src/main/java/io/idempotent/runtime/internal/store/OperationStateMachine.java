package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.AttemptLog.ATTEMPT_ENDS;
import static io.idempotent.runtime.internal.store.AttemptLog.MOVE_ATTEMPT_TO_LOG;
import static io.idempotent.runtime.internal.store.AttemptLog.attemptEnd;
import static io.idempotent.runtime.internal.store.Rows.instant;
import static io.idempotent.runtime.internal.store.StoreDatabase.inTransaction;
import static io.idempotent.runtime.internal.store.StoreTables.ID;
import static io.idempotent.runtime.internal.store.StoreTables.OPEN;
import static io.idempotent.runtime.internal.store.StoreTables.REPLACING_OPEN_ROW;
import static io.idempotent.runtime.internal.store.StoreTables.ROW_AFTER;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.OperationStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The operation state machine of one store: every change of an existing row (take-over, lease
 * expiry, effect boundary, heartbeat, completion, failure, settlement, release) and the
 * re-creation of a lost one; the claim that first writes a row is {@link OperationClaims}'. Each
 * change is built by {@link #transition}: one conditional {@code UPDATE}
 * whose {@link Guard} names the row and the state the caller observed, returning the row as it
 * left it (its new lease token), or a {@link Transition.LostRace} when the guard no longer held.
 * The attempt that last ran the body is kept on the row: a claim writes it with the row, a
 * completion or a failure ends it in the same {@code UPDATE}, and a take-over moves it to the
 * attempt log in the transaction that puts the new attempt in its place. Where the store keeps
 * {@code tool_operations_open} ({@link Dialect#keepsOpenOperations()}), a change of state writes
 * the operation's row there in the same statement (a claim adds it, an ending removes it), and
 * {@code expires_at} is set at the claim to the lease's end plus the retention and moved by an
 * ending only when that comes later: a completion inside its lease changes no indexed column, so
 * it is a HOT update.
 */
final class OperationStateMachine {

    private final StoreDatabase db;
    private final Dialect dialect;
    /** Whether changes of state also write {@link StoreTables#OPEN}. */
    private final boolean open;

    OperationStateMachine(StoreDatabase db) {
        this.db = db;
        this.dialect = db.dialect();
        this.open = dialect.keepsOpenOperations();
    }

    // The state machine. Each transition says what it writes and what the row must still be.

    Transition takeOver(Takeover t) {
        Guard guard = Guard.of(t.tool(), t.key()).status(t.expectedStatus()).token(t.expectedToken());
        if (t.requireExpiredLease()) {
            guard.leaseExpired();
        }
        if (t.requireEffectNotStarted()) {
            guard.effectNotStarted();
        }
        if (t.createdWithin() != null) {
            guard.createdWithin(dialect.nowPlusMillis(), t.createdWithin());
        }
        if (t.expectedStatus() == OperationStatus.APPROVED) {
            guard.leaseLive(); // an approved record's lease_until is the grant's end
        }
        // The new attempt's columns read the row as it was: its token and number are the old plus one.
        String set = "status = 'in_progress', lease_token = lease_token + 1, lease_until = " + dialect.nowPlusMillis()
                + ", effect_started = ?, attempts = attempts + 1, released_by = NULL, updated_at = CURRENT_TIMESTAMP,"
                + " retention_ms = ?, expires_at = " + keptRetention(dialect.nowPlusMillis()) + ", attempt_id = ?,"
                + " attempt_outcome = 'RUNNING', attempt_token = lease_token + 1, attempt_downstream_id = NULL,"
                + " attempt_detail = CONCAT('attempt ', CAST(attempts + 1 AS VARCHAR(11))),"
                + " attempt_started_at = CURRENT_TIMESTAMP, attempt_ended_at = NULL"
                // An approved operation's first run is its claim: the downstream's retention of the
                // key (the window in which Retry.UNCERTAIN may send it again) starts now, not at
                // the request, which may have waited hours for a person.
                + (t.expectedStatus() == OperationStatus.APPROVED ? ", created_at = CURRENT_TIMESTAMP" : "");
        Params setParams = new Params().lng(t.lease().toMillis()).bool(t.effectStartsWithBody())
                .lng(t.retention().toMillis()).lng(t.lease().toMillis() + t.retention().toMillis())
                .str(t.attemptId());
        db.ensureSchema();
        try (Connection c = db.connection()) {
            return inTransaction(c, () -> {
                // Lock the row while the guard holds, so the attempt moved to the log is the one replaced.
                try (PreparedStatement ps = c.prepareStatement("SELECT lease_token FROM tool_operations WHERE "
                        + guard.sql() + " FOR UPDATE")) {
                    guard.params().bind(ps);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            return new Transition.LostRace("take over");
                        }
                    }
                }
                try (PreparedStatement ps = c.prepareStatement(MOVE_ATTEMPT_TO_LOG)) {
                    new Params().str(t.tool()).str(t.key()).bind(ps);
                    ps.executeUpdate();
                }
                Transition changed = changed(c, "take over", dialect.returning("UPDATE tool_operations SET " + set
                        + " WHERE " + guard.sql(), ROW_AFTER), setParams.then(guard.params()));
                if (open && changed.applied()) {
                    reopen(c, t.tool(), t.key(), t.expectedStatus());
                }
                return changed;
            });
        } catch (SQLException e) {
            throw db.unavailable("take over an operation in", e);
        }
    }


    /**
     * The open row of an operation a take-over put back in progress (in its transaction, after the
     * change): moved from awaiting reconciliation, or added, with the record's claim time, when
     * it had ended; one in progress already has it.
     */
    private void reopen(Connection c, String tool, String key, OperationStatus was) throws SQLException {
        if (was == OperationStatus.IN_PROGRESS) {
            return;
        }
        String sql = was == OperationStatus.NEEDS_RECONCILIATION
                ? "UPDATE " + OPEN + " SET status = 'in_progress' WHERE " + ID
                : "INSERT INTO " + OPEN + " (tool, operation_key, status, created_at) SELECT tool, operation_key,"
                        + " 'in_progress', created_at FROM tool_operations WHERE " + ID + REPLACING_OPEN_ROW;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            new Params().str(tool).str(key).bind(ps);
            ps.executeUpdate();
        }
    }

    Transition expireLease(String tool, String key, long expectedToken, boolean safe, String errorJson) {
        Guard guard = Guard.of(tool, key).status(OperationStatus.IN_PROGRESS).token(expectedToken).leaseExpired();
        if (safe) {
            guard.effectNotStarted();
        }
        return transition("expire the lease", "status = ?, lease_token = lease_token + 1, lease_until = NULL,"
                + " error_json = ?, updated_at = CURRENT_TIMESTAMP, expires_at = " + keptRetention(),
                new Params().str(endStatus(safe)).str(errorJson), guard, ending(safe));
    }

    Transition markEffectStarting(String tool, String key, long leaseToken, String attemptId, String downstreamId,
            Duration lease) {
        return transition("mark the effect boundary", "effect_started = TRUE, downstream_id = ?, lease_until = "
                + dialect.nowPlusMillis() + ", updated_at = CURRENT_TIMESTAMP",
                new Params().str(downstreamId).lng(lease.toMillis()),
                Guard.running(tool, key, leaseToken, attemptId).leaseLive());
    }

    Transition heartbeat(String tool, String key, long leaseToken, String attemptId, Duration lease) {
        return transition("extend the lease", "lease_until = " + dialect.nowPlusMillis(),
                new Params().lng(lease.toMillis()), Guard.running(tool, key, leaseToken, attemptId).leaseLive());
    }

    /**
     * The completion; with the messages the body sent, in one transaction with their outbox rows
     * ({@link OutboxRows#insert}), so that both commit or neither does.
     */
    Transition complete(String tool, String key, long leaseToken, String attemptId, String resultJson,
            AttemptEnd end) {
        return transition("complete", "status = 'completed', result_json = ?, error_json = NULL, lease_until = NULL,"
                + " updated_at = CURRENT_TIMESTAMP, expires_at = " + keptRetention() + ", " + ATTEMPT_ENDS,
                new Params().str(resultJson).then(attemptEnd(AttemptOutcome.COMPLETED, end.downstreamId(),
                        end.detail())),
                Guard.running(tool, key, leaseToken, attemptId), OpenRow.CLOSED, end.messages().isEmpty() ? null
                        : c -> OutboxRows.insert(c, tool, key, end.messages()));
    }

    Transition fail(String tool, String key, long leaseToken, String attemptId, boolean safe, String errorJson,
            AttemptEnd end) {
        return transition("record the failure", "status = ?, error_json = ?, lease_until = NULL, effect_started = ?,"
                + " updated_at = CURRENT_TIMESTAMP, expires_at = " + keptRetention() + ", " + ATTEMPT_ENDS,
                new Params().str(endStatus(safe)).str(errorJson).bool(!safe).then(attemptEnd(safe
                        ? AttemptOutcome.FAILED_SAFE : AttemptOutcome.NEEDS_RECONCILIATION, end.downstreamId(),
                        end.detail())),
                Guard.running(tool, key, leaseToken, attemptId), ending(safe));
    }

    Transition settleApplied(String tool, String key, long expectedToken, String resultJson) {
        return transition("settle as applied", "status = 'completed', result_json = ?, lease_token = lease_token + 1,"
                + " updated_at = CURRENT_TIMESTAMP, expires_at = " + keptRetention(), new Params().str(resultJson),
                Guard.of(tool, key).status(OperationStatus.NEEDS_RECONCILIATION).token(expectedToken), OpenRow.CLOSED);
    }

    Transition settleNotApplied(String tool, String key, long expectedToken, String releasedBy) {
        return transition("settle as not applied", "status = 'failed_safe', effect_started = FALSE, released_by = ?,"
                + " lease_token = lease_token + 1, updated_at = CURRENT_TIMESTAMP, expires_at = " + keptRetention(),
                new Params().str(releasedBy),
                Guard.of(tool, key).status(OperationStatus.NEEDS_RECONCILIATION).token(expectedToken), OpenRow.CLOSED);
    }

    /**
     * Releases a claim whose answer was lost before its body started: {@code failed_safe}, its
     * effect not started and {@code released_by} set (so even a {@code Retry.NEVER} tool runs the
     * body under the key, as for the first time), only while the claim's own attempt holds the
     * record as the claim wrote it (lease token 1, its attempt id), whether or not its lease has
     * expired.
     */
    Transition releaseClaim(String tool, String key, String attemptId, String releasedBy) {
        return transition("release the claim", "status = 'failed_safe', effect_started = FALSE, released_by = ?,"
                + " lease_until = NULL, updated_at = CURRENT_TIMESTAMP, expires_at = " + keptRetention() + ", "
                + ATTEMPT_ENDS, new Params().str(releasedBy).then(attemptEnd(AttemptOutcome.FAILED_SAFE, null,
                        "the claim's answer was lost; the body did not run")),
                Guard.running(tool, key, 1, attemptId), OpenRow.CLOSED);
    }

    /**
     * Every ending keeps the record at least its retention after it, so its log is kept that long
     * after it. The claim already set {@code expires_at} to the lease's end plus the retention: an
     * ending inside that lease leaves the value as it is (and the completion a HOT update).
     */
    private String keptRetention() {
        return keptRetention(dialect.nowPlusMillis("retention_ms"));
    }

    private static String keptRetention(String fromNow) {
        return "GREATEST(expires_at, " + fromNow + ")";
    }

    /** What a transition does to the operation's row in {@link StoreTables#OPEN}. */
    private enum OpenRow {
        /** Nothing: the state does not change. */
        KEPT,
        /** Removed: the operation ended (completed or failed safely). */
        CLOSED,
        /** Moved from in progress to awaiting reconciliation. */
        AWAITS_RECONCILIATION
    }

    /** A failure's or a lease expiry's change of the open row. */
    private static OpenRow ending(boolean safe) {
        return safe ? OpenRow.CLOSED : OpenRow.AWAITS_RECONCILIATION;
    }

    private static String endStatus(boolean safe) {
        return (safe ? OperationStatus.FAILED_SAFE : OperationStatus.NEEDS_RECONCILIATION).column();
    }

    /**
     * Runs one transition: {@code UPDATE tool_operations SET set WHERE guard}, returning the row as
     * it left it. No row: the guard no longer held ({@link Transition.LostRace}) and nothing was
     * written; more than one: the guard did not name one operation, a bug.
     */
    Transition transition(String what, String set, Params setParams, Guard guard) {
        return transition(what, set, setParams, guard, OpenRow.KEPT);
    }

    /**
     * A transition that also changes the operation's open row, in the same statement where the
     * store keeps them, found by its primary key.
     */
    private Transition transition(String what, String set, Params setParams, Guard guard, OpenRow openRow) {
        return transition(what, set, setParams, guard, openRow, null);
    }

    /** Writes more on the transition's connection, in its transaction, once the transition applied. */
    private interface AlsoWrite {
        void write(Connection c) throws SQLException;
    }

    private Transition transition(String what, String set, Params setParams, Guard guard, OpenRow openRow,
            AlsoWrite also) {
        db.ensureSchema();
        String update = "UPDATE tool_operations SET " + set + " WHERE " + guard.sql();
        String sql;
        if (open && openRow != OpenRow.KEPT) {
            String match = " WHERE o.tool = e.tool AND o.operation_key = e.operation_key";
            sql = "WITH ended AS (" + update + " RETURNING " + ROW_AFTER + ", tool, operation_key),"
                    + " open_row AS (" + (openRow == OpenRow.CLOSED ? "DELETE FROM " + OPEN + " o USING ended e"
                            : "UPDATE " + OPEN + " o SET status = 'needs_reconciliation' FROM ended e") + match
                    + ") SELECT " + ROW_AFTER + " FROM ended";
        } else {
            sql = dialect.returning(update, ROW_AFTER);
        }
        try (Connection c = db.connection()) {
            if (also == null) {
                return changed(c, what, sql, setParams.then(guard.params()));
            }
            if (!c.getAutoCommit()) {
                // Already in a transaction (a transactional tool's, whose connection the store's
                // statements on this thread use): it commits or rolls back both.
                Transition t = changed(c, what, sql, setParams.then(guard.params()));
                if (t.applied()) {
                    also.write(c);
                }
                return t;
            }
            return inTransaction(c, () -> {
                Transition t = changed(c, what, sql, setParams.then(guard.params()));
                if (t.applied()) {
                    also.write(c);
                }
                return t;
            });
        } catch (SQLException e) {
            throw db.unavailable(what + " an operation in", e);
        }
    }

    /** Runs a change that returns its rows and checks that it changed at most one. */
    private Transition changed(Connection c, String what, String sql, Params params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            params.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new Transition.LostRace(what);
                }
                Transition.Applied applied = new Transition.Applied(rs.getLong(1), rs.getInt(2), instant(rs, 3));
                if (rs.next()) {
                    throw new IllegalStateException(db.described() + ": \"" + what + "\" changed more than one row; its"
                            + " guard must name one operation");
                }
                return applied;
            }
        }
    }

    /**
     * The record an attempt found missing, inserted again as the attempt knows it: its own lease
     * token and number, the attempt on it (ended, unless it still runs), created as long ago as
     * the attempt's claim was sent. An existing row of the key wins (PostgreSQL: {@code ON
     * CONFLICT DO NOTHING}; H2: its primary key refuses the insert): nothing changes.
     */
    Transition recreate(LostRecord r) {
        boolean running = r.status() == OperationStatus.IN_PROGRESS;
        AttemptOutcome outcome = switch (r.status()) {
            case IN_PROGRESS -> AttemptOutcome.RUNNING;
            case COMPLETED -> AttemptOutcome.COMPLETED;
            case FAILED_SAFE -> AttemptOutcome.FAILED_SAFE;
            case NEEDS_RECONCILIATION -> AttemptOutcome.NEEDS_RECONCILIATION;
            case AWAITING_APPROVAL, APPROVED, DENIED -> throw new IllegalArgumentException("an attempt never ends"
                    + " as " + r.status().column());
        };
        String created = dialect.nowPlusMillis();
        String sql = "INSERT INTO tool_operations (tool, operation_key, payload_hash, payload_json, status,"
                + " lease_token, lease_until, effect_started, downstream_id, result_json, error_json, attempts,"
                + " created_at, updated_at, retention_ms, expires_at, attempt_id, attempt_outcome, attempt_token,"
                + " attempt_downstream_id, attempt_detail, attempt_started_at, attempt_ended_at) VALUES (?, ?, ?, ?,"
                + " ?, ?, " + (running ? dialect.nowPlusMillis() : "NULL") + ", ?, ?, ?, ?, ?, " + created + ","
                + " CURRENT_TIMESTAMP, ?, " + dialect.nowPlusMillis() + ", ?, ?, ?, ?, ?, " + created + ", "
                + (running ? "NULL" : "CURRENT_TIMESTAMP") + ")"
                + (dialect.dataModifyingWith() ? " ON CONFLICT ON CONSTRAINT tool_operations_pk DO NOTHING" : "");
        if (open) {
            // The open operations lost the row too: an operation in progress or awaiting
            // reconciliation is put back there, so that the lookups, the gauge and the
            // reconciliation queue find it; an ended one leaves nothing behind there.
            boolean stillOpen = running || r.status() == OperationStatus.NEEDS_RECONCILIATION;
            sql = "WITH created AS (" + sql + " RETURNING tool, operation_key, status, created_at), open_row AS ("
                    + (stillOpen ? "INSERT INTO " + OPEN + " (tool, operation_key, status, created_at) SELECT tool,"
                            + " operation_key, status, created_at FROM created" + REPLACING_OPEN_ROW
                            : "DELETE FROM " + OPEN + " o USING created c WHERE o.tool = c.tool"
                                    + " AND o.operation_key = c.operation_key")
                    + ") SELECT COUNT(*) FROM created";
        }
        Params params = new Params().str(r.tool()).str(r.key()).str(r.payloadHash()).str(r.payloadJson())
                .str(r.status().column()).lng(r.leaseToken());
        if (running) {
            params.lng(r.lease().toMillis());
        }
        params.bool(r.effectStarted()).str(r.downstreamId()).str(r.resultJson()).str(r.errorJson())
                .lng(r.attempts()).lng(-r.age().toMillis()).lng(r.retention().toMillis())
                .lng(r.retention().toMillis()).str(r.attemptId()).str(outcome.name()).lng(r.leaseToken()).str(r.downstreamId()).str(r.detail())
                .lng(-r.age().toMillis());
        db.ensureSchema();
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            params.bind(ps);
            int inserted;
            if (open) {
                try (ResultSet rs = ps.executeQuery()) {
                    inserted = rs.next() ? rs.getInt(1) : 0;
                }
            } else {
                inserted = ps.executeUpdate();
            }
            return inserted == 1 ? new Transition.Applied(r.leaseToken(), r.attempts(), null)
                    : new Transition.LostRace("re-create");
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState())) {
                return new Transition.LostRace("re-create"); // H2: a row of the key exists again
            }
            throw db.unavailable("re-create a missing operation in", e);
        }
    }
}
