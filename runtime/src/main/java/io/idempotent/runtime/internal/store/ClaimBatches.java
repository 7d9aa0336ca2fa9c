package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.ClaimFate.MAY_HAVE_CLAIMED;
import static io.idempotent.runtime.internal.store.ClaimFate.NOTHING_CLAIMED;
import static io.idempotent.runtime.internal.store.Rows.instant;
import static io.idempotent.runtime.internal.store.StoreTables.OPEN;
import static io.idempotent.runtime.internal.store.StoreTables.REPLACING_OPEN_ROW;
import static io.idempotent.runtime.internal.store.StoreTables.ROW_AFTER;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Client-side group commit of claims on PostgreSQL (issue 39), by {@link GroupCommit}: claims sent
 * while another claim of the store is in flight go together as one statement, the single claim's
 * read-or-insert over {@code unnest(arrays)} (one transaction, one WAL flush), each caller getting
 * its own answer: its fresh row with its lease (from the database's clock), or the row that
 * existed. A batch holds each key once (its answer is found by its key: one row's answer never
 * goes to two callers, and a second claim of a key is its caller's own single claim); a key
 * that neither was read nor inserted (another claim's row not yet visible to the statement's
 * snapshot) is claimed again alone. A failure after the statement was sent is each caller's "may
 * have been recorded" claim failure, exactly as its single claim's would have been.
 */
final class ClaimBatches implements GroupCommit.Statements<ClaimRequest, ClaimResult> {

    private final StoreDatabase db;
    private final OperationClaims claims;
    private final Rows rows;
    private final String sql;
    private final GroupCommit<ClaimRequest, ClaimResult> batches = new GroupCommit<>(this);

    /** Batches of {@code db}'s claims; {@code claims} makes one claim alone. */
    ClaimBatches(StoreDatabase db, OperationClaims claims) {
        this.db = db;
        this.claims = claims;
        this.rows = db.rows();
        this.sql = batchSql(db.dialect());
    }

    /** Claims {@code request}'s key, alone or in the batch of the claims queued with it. */
    ClaimResult claim(ClaimRequest request) {
        db.ensureSchema(NOTHING_CLAIMED);
        return batches.send(request);
    }

    /**
     * The single claim's statement for many keys: read the existing rows; insert, in key order (so
     * that two stores' batches wait for each other's keys in one order), those not read; add
     * their open rows. A new row comes back with its key and what {@link ClaimResult.Inserted} holds.
     */
    private String batchSql(Dialect dialect) {
        List<String> newRow = List.of(ROW_AFTER.split(", "));
        StringBuilder created = new StringBuilder("inserted");
        for (String column : Rows.NAMES) {
            created.append(", ").append(column.equals("tool") ? "new_tool" : column.equals("operation_key")
                    ? "new_key" : newRow.contains(column) ? column : "NULL");
        }
        boolean open = dialect.keepsOpenOperations();
        return "WITH input AS (SELECT * FROM unnest(CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]),"
                + " CAST(? AS TEXT[]), CAST(? AS BIGINT[]), CAST(? AS BOOLEAN[]), CAST(? AS BIGINT[]),"
                + " CAST(? AS BIGINT[]), CAST(? AS VARCHAR[])) AS i (tool, operation_key, payload_hash, payload_json,"
                + " lease_ms, effect_started, retention_ms, expires_ms, attempt_id)), existing AS (SELECT FALSE AS"
                + " inserted, " + rows.columns("t.") + " FROM tool_operations t JOIN input i ON t.tool = i.tool AND"
                + " t.operation_key = i.operation_key), created AS (INSERT INTO tool_operations ("
                + OperationClaims.NEW_OPERATION_COLUMNS + ") SELECT " + OperationClaims.newOperationValues("i.tool",
                        "i.operation_key", "i.payload_hash", "i.payload_json", dialect.nowPlusMillis("i.lease_ms"),
                        "i.effect_started", "i.retention_ms", dialect.nowPlusMillis("i.expires_ms"), "i.attempt_id")
                + " FROM input i WHERE NOT EXISTS (SELECT 1 FROM existing e WHERE e.tool = i.tool AND e.operation_key ="
                + " i.operation_key) ORDER BY i.tool, i.operation_key ON CONFLICT ON CONSTRAINT tool_operations_pk DO"
                + " NOTHING RETURNING TRUE AS inserted, " + ROW_AFTER + ", tool AS new_tool, operation_key AS new_key,"
                + " created_at AS new_created_at)"
                + (open ? ", opened AS (INSERT INTO " + OPEN + " (tool, operation_key, status, created_at) SELECT"
                        + " new_tool, new_key, 'in_progress', new_created_at FROM created" + REPLACING_OPEN_ROW
                        + ")" : "")
                + " SELECT * FROM existing UNION ALL SELECT " + created + " FROM created";
    }

    @Override
    public Object operation(ClaimRequest r) {
        return List.of(r.tool(), r.key());
    }

    @Override
    public ClaimResult alone(ClaimRequest r) {
        return claims.claim(r);
    }

    @Override
    public RuntimeException failed(ClaimRequest r, SQLException e) {
        // The statement may have reached the database and committed before the reply was lost.
        return db.failure("claim the key in", e, MAY_HAVE_CLAIMED);
    }

    @Override
    public List<ClaimResult> together(List<ClaimRequest> batch) throws SQLException {
        int n = batch.size();
        Object[][] columns = new Object[9][n];
        for (int i = 0; i < n; i++) {
            ClaimRequest r = batch.get(i);
            Object[] row = {r.tool(), r.key(), r.payloadHash(), r.payloadJson(), r.lease().toMillis(),
                r.effectStartsWithBody(), r.retention().toMillis(), r.lease().toMillis() + r.retention().toMillis(),
                r.attemptId()};
            for (int c = 0; c < row.length; c++) {
                columns[c][i] = row[c];
            }
        }
        String[] types = {"varchar", "varchar", "varchar", "text", "bigint", "boolean", "bigint", "bigint", "varchar"};
        Connection connection;
        try {
            connection = db.connection();
        } catch (SQLException e) {
            // Nothing sent: each claim tries alone, and fails (or not) as its own.
            return new ArrayList<>(Collections.nCopies(n, null));
        }
        Map<List<String>, ClaimResult> answered = new HashMap<>();
        try (Connection c = connection; PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < columns.length; i++) {
                Array array = c.createArrayOf(types[i], columns[i]);
                ps.setArray(i + 1, array);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<String> id = List.of(rs.getString("tool"), rs.getString("operation_key"));
                    answered.put(id, rs.getBoolean("inserted") ? new ClaimResult.Inserted(rs.getLong("lease_token"),
                            rs.getInt("attempts"), instant(rs, "lease_until"))
                            : new ClaimResult.Existing(rows.read(rs)));
                }
            }
        }
        List<ClaimResult> outcomes = new ArrayList<>();
        for (ClaimRequest r : batch) {
            outcomes.add(answered.get(List.of(r.tool(), r.key())));
        }
        return outcomes;
    }
}
