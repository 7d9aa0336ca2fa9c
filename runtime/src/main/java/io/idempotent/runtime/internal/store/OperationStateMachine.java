package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.AttemptLog.ATTEMPT_ENDS;
import static io.idempotent.runtime.internal.store.AttemptLog.MOVE_ATTEMPT_TO_LOG;
import static io.idempotent.runtime.internal.store.AttemptLog.attemptEnd;
import static io.idempotent.runtime.internal.store.Rows.instant;
import static io.idempotent.runtime.internal.store.StoreDatabase.inTransaction;
import static io.idempotent.runtime.internal.store.StoreFailures.MAY_HAVE_CLAIMED;
import static io.idempotent.runtime.internal.store.StoreFailures.NOTHING_CLAIMED;
import static io.idempotent.runtime.internal.store.StoreSchema.HANDOVER_PAUSE_NANOS;
import static io.idempotent.runtime.internal.store.StoreSchema.HANDOVER_TRIES;
import static io.idempotent.runtime.internal.store.StoreTables.ID;
import static io.idempotent.runtime.internal.store.StoreTables.OPEN;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.StoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The operation state machine of one store: the atomic claim of a key, and every change of an
 * existing row (take-over, lease expiry, effect boundary, heartbeat, completion, failure,
 * settlement). Each change is built by {@link #transition}: one conditional {@code UPDATE}
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

    /** How often a claim re-reads a row that a concurrent insert had not yet made visible. */
    private static final int VISIBILITY_RETRIES = 50;

    /** The columns a change returns: the row as the change left it. */
    private static final String ROW_AFTER = "lease_token, attempts, lease_until";

    /**
     * An open row written for a key replaces one left behind by a record deleted by hand (the
     * purge deletes only ended records, which have none), so that the key can be claimed again.
     */
    private static final String REPLACING_OPEN_ROW = " ON CONFLICT ON CONSTRAINT tool_operations_open_pk DO UPDATE"
            + " SET status = EXCLUDED.status, created_at = EXCLUDED.created_at";

    /** The columns of a new operation's row, in the order of {@link #newOperationValues}. */
    private static final String NEW_OPERATION_COLUMNS = "tool, operation_key, payload_hash, payload_json, status,"
            + " lease_token, lease_until, effect_started, attempts, created_at, updated_at, retention_ms, expires_at,"
            + " attempt_id, attempt_outcome, attempt_token, attempt_detail, attempt_started_at";

    /**
     * A new operation's values, with the attempt that claims it {@code RUNNING} on it; the
     * parameters are {@link #insertParams}. Both databases' claims insert exactly this.
     */
    private String newOperationValues() {
        return "?, ?, ?, ?, 'in_progress', 1, " + dialect.nowPlusMillis() + ", ?, 1, CURRENT_TIMESTAMP,"
                + " CURRENT_TIMESTAMP, ?, " + dialect.nowPlusMillis() + ", ?, 'RUNNING', 1, 'attempt 1',"
                + " CURRENT_TIMESTAMP";
    }

    private static Params insertParams(ClaimRequest r) {
        return new Params().str(r.tool()).str(r.key()).str(r.payloadHash()).str(r.payloadJson())
                .lng(r.lease().toMillis()).bool(r.effectStartsWithBody()).lng(r.retention().toMillis())
                .lng(r.lease().toMillis() + r.retention().toMillis()).str(r.attemptId());
    }

    private final StoreDatabase db;
    private final Dialect dialect;
    /** Whether changes of state also write {@link StoreTables#OPEN}. */
    private final boolean open;
    private final Rows rows;
    /** The claim: PostgreSQL's read-or-insert, or H2's insert (which reads when refused). */
    private final String claimSql;

    OperationStateMachine(StoreDatabase db) {
        this.db = db;
        this.dialect = db.dialect();
        this.open = dialect.keepsOpenOperations();
        this.rows = db.rows();
        this.claimSql = dialect.dataModifyingWith() ? readOrInsertSql() : dialect.returning("INSERT INTO"
                + " tool_operations (" + NEW_OPERATION_COLUMNS + ") VALUES (" + newOperationValues() + ")", ROW_AFTER);
    }

    ClaimResult claim(ClaimRequest request) {
        db.ensureSchema(NOTHING_CLAIMED);
        for (int attempt = 1; ; attempt++) {
            try {
                return claimOnce(request);
            } catch (HandoverDuringClaim handover) {
                // A claim is safe to make again: one that did commit before the store changed
                // hands is found by the next try as this key's row (in progress), never claimed twice.
                if (attempt >= HANDOVER_TRIES) {
                    throw db.failure("claim the key in", handover.failure, MAY_HAVE_CLAIMED);
                }
                LockSupport.parkNanos(HANDOVER_PAUSE_NANOS);
            }
        }
    }

    /** A claim met an embedded H2 store changing hands ({@link SqlStates#isH2Handover}). */
    private static final class HandoverDuringClaim extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient SQLException failure;

        HandoverDuringClaim(SQLException cause) {
            super(null, null, false, false);
            this.failure = cause;
        }
    }

    private ClaimResult claimOnce(ClaimRequest request) throws HandoverDuringClaim {
        Connection connection;
        try {
            connection = db.connection();
        } catch (SQLException e) {
            throw db.failure("connect to", e, NOTHING_CLAIMED);
        }
        try (Connection c = connection) {
            for (int i = 0; i < VISIBILITY_RETRIES; i++) {
                ClaimResult result = dialect.dataModifyingWith() ? claimInOneStatement(c, request)
                        : insertOrRead(c, request);
                if (result != null) {
                    return result;
                }
                // The key's row was inserted after this statement's snapshot was taken (so it was
                // neither read nor inserted), or the conflicting insert was rolled back or the row
                // deleted: claim again, with a new snapshot.
            }
            throw new StoreUnavailableException(request.tool(), request.key(), db.described() + ": the key kept"
                    + " conflicting with a row that never became visible; nothing was claimed");
        } catch (SQLException e) {
            if (SqlStates.isH2Handover(e)) {
                throw new HandoverDuringClaim(e);
            }
            // The statement may have reached the database and committed before the reply was lost.
            throw db.failure("claim the key in", e, MAY_HAVE_CLAIMED);
        }
    }

    /**
     * PostgreSQL's claim, one statement on every path: read the operation by its primary key and,
     * only when the read found none, insert it ({@code ON CONFLICT DO NOTHING}). A repeat (a
     * replay, a payload conflict, "in progress") reads one row and inserts nothing; a new row comes
     * back with only what its caller reads (its lease token, attempt number and lease end). No row
     * back: another claim inserted the key after this statement's snapshot.
     * Plain SQL: a data-modifying {@code WITH}, which PostgreSQL, CockroachDB and YugabyteDB accept.
     */
    private String readOrInsertSql() {
        // A new row's caller reads only what ClaimResult.Inserted holds: the rest goes back as NULL.
        List<String> newRow = List.of(ROW_AFTER.split(", "));
        StringBuilder created = new StringBuilder("inserted");
        for (String column : Rows.NAMES) {
            created.append(", ").append(newRow.contains(column) ? column : "NULL");
        }
        return "WITH existing AS (SELECT FALSE AS inserted, " + rows.columns("") + " FROM tool_operations WHERE "
                + ID + "), created AS (INSERT INTO tool_operations (" + NEW_OPERATION_COLUMNS + ") SELECT "
                + newOperationValues() + " WHERE NOT EXISTS (SELECT 1 FROM existing) ON CONFLICT ON CONSTRAINT"
                + " tool_operations_pk DO NOTHING RETURNING TRUE AS inserted, " + ROW_AFTER
                + (open ? ", tool AS new_tool, operation_key AS new_key, created_at AS new_created_at), opened AS"
                        + " (INSERT INTO " + OPEN + " (tool, operation_key, status, created_at) SELECT new_tool,"
                        + " new_key, 'in_progress', new_created_at FROM created" + REPLACING_OPEN_ROW : "")
                + ") SELECT * FROM existing UNION ALL SELECT " + created + " FROM created";
    }

    private ClaimResult claimInOneStatement(Connection c, ClaimRequest request) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(claimSql)) {
            new Params().str(request.tool()).str(request.key()).then(insertParams(request)).bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                if (rs.getBoolean("inserted")) {
                    return new ClaimResult.Inserted(rs.getLong("lease_token"), rs.getInt("attempts"),
                            instant(rs, "lease_until"));
                }
                return new ClaimResult.Existing(rows.read(rs));
            }
        }
    }

    /**
     * H2: insert the row with the attempt {@code RUNNING} on it; when the primary key refuses the
     * insert, read the existing row.
     */
    private ClaimResult insertOrRead(Connection c, ClaimRequest request) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(claimSql)) {
            insertParams(request).bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new ClaimResult.Inserted(rs.getLong(1), rs.getInt(2), instant(rs, 3));
            }
        } catch (SQLException e) {
            if (!"23505".equals(e.getSQLState())) {
                throw e;
            }
        }
        return rows.find(c, request.tool(), request.key()).<ClaimResult>map(ClaimResult.Existing::new).orElse(null);
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
                        + guard.sql + " FOR UPDATE")) {
                    guard.params.bind(ps);
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
                        + " WHERE " + guard.sql, ROW_AFTER), setParams.then(guard.params));
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

    Transition complete(String tool, String key, long leaseToken, String attemptId, String resultJson,
            AttemptEnd end) {
        return transition("complete", "status = 'completed', result_json = ?, error_json = NULL, lease_until = NULL,"
                + " updated_at = CURRENT_TIMESTAMP, expires_at = " + keptRetention() + ", " + ATTEMPT_ENDS,
                new Params().str(resultJson).then(attemptEnd(AttemptOutcome.COMPLETED, end.downstreamId(),
                        end.detail())),
                Guard.running(tool, key, leaseToken, attemptId), OpenRow.CLOSED);
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
        db.ensureSchema();
        String update = "UPDATE tool_operations SET " + set + " WHERE " + guard.sql;
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
            return changed(c, what, sql, setParams.then(guard.params));
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
     * The guard of a transition: the operation it names and the state the caller observed. Every
     * transition names the row by {@code (tool, operation_key)} and adds what must still hold.
     */
    static final class Guard {
        private final StringBuilder sql = new StringBuilder(ID);
        private final Params params = new Params();

        private Guard(String tool, String key) {
            params.str(tool).str(key);
        }

        static Guard of(String tool, String key) {
            return new Guard(tool, key);
        }

        /**
         * The guard of every write of a running attempt: the operation is in progress under the
         * attempt's lease token, and the attempt on the row is this one. The token alone does not
         * fence: a record lost to a failover and claimed afresh starts again at token 1, which an
         * older attempt still running elsewhere also holds; only the attempt id tells them apart.
         * The row names its running attempt in {@code attempt_id} (written by the claim, the
         * take-over and a re-creation), a column no index reads, so a completion stays HOT.
         */
        static Guard running(String tool, String key, long leaseToken, String attemptId) {
            Guard guard = new Guard(tool, key).status(OperationStatus.IN_PROGRESS).token(leaseToken);
            guard.sql.append(" AND attempt_id = ?");
            guard.params.str(attemptId);
            return guard;
        }

        /** The condition, for a statement's {@code WHERE}. */
        String sql() {
            return sql.toString();
        }

        /** The condition's parameters, in order. */
        Params params() {
            return params;
        }

        Guard status(OperationStatus status) {
            sql.append(" AND status = ?");
            params.str(status.column());
            return this;
        }

        Guard token(long leaseToken) {
            sql.append(" AND lease_token = ?");
            params.lng(leaseToken);
            return this;
        }

        /** The lease has not expired, by the database's clock. */
        Guard leaseLive() {
            sql.append(" AND lease_until > CURRENT_TIMESTAMP");
            return this;
        }

        /** The lease has expired, by the database's clock. */
        Guard leaseExpired() {
            sql.append(" AND lease_until <= CURRENT_TIMESTAMP");
            return this;
        }

        Guard effectNotStarted() {
            sql.append(" AND effect_started = FALSE");
            return this;
        }

        /** The operation was first claimed less than {@code age} ago, by the database's clock. */
        Guard createdWithin(String nowPlusMillis, Duration age) {
            sql.append(" AND created_at > ").append(nowPlusMillis);
            params.lng(-age.toMillis());
            return this;
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
