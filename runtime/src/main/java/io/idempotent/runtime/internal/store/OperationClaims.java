package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.ClaimFate.MAY_HAVE_CLAIMED;
import static io.idempotent.runtime.internal.store.ClaimFate.NOTHING_CLAIMED;
import static io.idempotent.runtime.internal.store.Rows.instant;
import static io.idempotent.runtime.internal.store.StoreSchema.HANDOVER_PAUSE_NANOS;
import static io.idempotent.runtime.internal.store.StoreSchema.HANDOVER_TRIES;
import static io.idempotent.runtime.internal.store.StoreTables.ID;
import static io.idempotent.runtime.internal.store.StoreTables.OPEN;
import static io.idempotent.runtime.internal.store.StoreTables.REPLACING_OPEN_ROW;
import static io.idempotent.runtime.internal.store.StoreTables.ROW_AFTER;

import io.idempotent.runtime.StoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The atomic claim of a key in one store: the statement that writes an operation's first row
 * with the attempt that claims it {@code RUNNING} on it, or reads the row that exists
 * (PostgreSQL: read-or-insert in one statement; H2: insert, and read when the primary key
 * refuses), made again while an embedded H2 store changes hands. Apart from the
 * {@link OperationStateMachine} because it is not a transition: it changes no existing row and
 * has no {@link Guard}; every later change of the row is the state machine's. Where the store
 * keeps {@code tool_operations_open}, the claim adds the operation's row there in the same
 * statement.
 */
final class OperationClaims {

    /** How often a claim re-reads a row that a concurrent insert had not yet made visible. */
    private static final int VISIBILITY_RETRIES = 50;

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
    /** Whether the claim also writes {@link StoreTables#OPEN}. */
    private final boolean open;
    private final Rows rows;
    /** The claim: PostgreSQL's read-or-insert, or H2's insert (which reads when refused). */
    private final String claimSql;

    OperationClaims(StoreDatabase db) {
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
                    + " conflicting with a row that never became visible" + NOTHING_CLAIMED.said());
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
}
