package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.Rows.instant;
import static io.idempotent.runtime.internal.store.StoreTables.OPEN;

import io.idempotent.runtime.AttemptOutcome;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Client-side group commit of completions on PostgreSQL (issue 39), by {@link GroupCommit}:
 * completions sent while another completion of the store is in flight go together as one
 * statement ({@code UPDATE ... FROM unnest(arrays)}, one transaction, one WAL flush), each caller
 * getting its own outcome. Each row keeps its own guard (in progress, the lease token, the attempt
 * id), so fencing is unchanged: a row whose guard no longer holds comes back as
 * {@link Transition.LostRace} to its own caller only, who then handles a lost record as before.
 */
final class CompletionBatches implements GroupCommit.Statements<CompletionBatches.Completion, Transition> {

    /** One caller's completion. */
    record Completion(String tool, String key, long leaseToken, String attemptId, String resultJson,
            String downstreamId, String detail) {
    }

    private final StoreDatabase db;
    private final Function<Completion, Transition> alone;
    private final String sql;
    private final GroupCommit<Completion, Transition> batches = new GroupCommit<>(this);

    /** Batches of {@code db}'s completions; {@code alone} sends one completion as its own statement. */
    CompletionBatches(StoreDatabase db, Function<Completion, Transition> alone) {
        this.db = db;
        this.alone = alone;
        this.sql = "WITH input AS (SELECT * FROM unnest(CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]),"
                + " CAST(? AS BIGINT[]), CAST(? AS VARCHAR[]), CAST(? AS TEXT[]), CAST(? AS VARCHAR[]),"
                + " CAST(? AS TEXT[])) AS i (tool, operation_key, lease_token, attempt_id, result_json, downstream_id,"
                + " detail)), ended AS (UPDATE tool_operations t SET status = 'completed', result_json = i.result_json,"
                + " error_json = NULL, lease_until = NULL, updated_at = CURRENT_TIMESTAMP, expires_at ="
                + " GREATEST(t.expires_at, (CURRENT_TIMESTAMP + t.retention_ms * INTERVAL '1 millisecond')),"
                + " attempt_outcome = '" + AttemptOutcome.COMPLETED.name() + "', attempt_downstream_id ="
                + " COALESCE(i.downstream_id, t.attempt_downstream_id), attempt_detail = i.detail, attempt_ended_at ="
                + " CURRENT_TIMESTAMP FROM input i WHERE t.tool = i.tool AND t.operation_key = i.operation_key"
                + " AND t.status = 'in_progress' AND t.lease_token = i.lease_token AND t.attempt_id = i.attempt_id"
                + " RETURNING t.tool, t.operation_key, t.lease_token, t.attempts, t.lease_until), open_row AS"
                + " (DELETE FROM " + OPEN + " o USING ended e WHERE o.tool = e.tool AND o.operation_key ="
                + " e.operation_key) SELECT tool, operation_key, lease_token, attempts, lease_until FROM ended";
    }

    /** Completes {@code c}, alone or in the batch of the completions queued with it. */
    Transition complete(Completion c) {
        return batches.send(c);
    }

    @Override
    public Object operation(Completion c) {
        return id(c.tool(), c.key());
    }

    @Override
    public Transition alone(Completion c) {
        return alone.apply(c);
    }

    @Override
    public RuntimeException failed(Completion c, SQLException e) {
        return db.unavailable("complete an operation in", e);
    }

    @Override
    public List<Transition> together(List<Completion> batch) throws SQLException {
        Map<String, Transition> applied = applied(batch);
        List<Transition> outcomes = new ArrayList<>();
        for (Completion c : batch) {
            Transition t = applied.get(id(c.tool(), c.key()));
            outcomes.add(t != null ? t : new Transition.LostRace("complete"));
        }
        return outcomes;
    }

    private Map<String, Transition> applied(List<Completion> batch) throws SQLException {
        int n = batch.size();
        String[] tools = new String[n];
        String[] keys = new String[n];
        Long[] tokens = new Long[n];
        String[] attempts = new String[n];
        String[] results = new String[n];
        String[] downstream = new String[n];
        String[] details = new String[n];
        for (int i = 0; i < n; i++) {
            Completion c = batch.get(i);
            tools[i] = c.tool();
            keys[i] = c.key();
            tokens[i] = c.leaseToken();
            attempts[i] = c.attemptId();
            results[i] = c.resultJson();
            downstream[i] = c.downstreamId();
            details[i] = c.detail();
        }
        db.ensureSchema();
        Map<String, Transition> applied = new HashMap<>();
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            List<Array> arrays = List.of(c.createArrayOf("varchar", tools), c.createArrayOf("varchar", keys),
                    c.createArrayOf("bigint", tokens), c.createArrayOf("varchar", attempts),
                    c.createArrayOf("text", results), c.createArrayOf("varchar", downstream),
                    c.createArrayOf("text", details));
            for (int i = 0; i < arrays.size(); i++) {
                ps.setArray(i + 1, arrays.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    applied.put(id(rs.getString(1), rs.getString(2)), new Transition.Applied(rs.getLong(3),
                            rs.getInt(4), instant(rs, 5)));
                }
            }
        }
        return applied;
    }

    private static String id(String tool, String key) {
        return tool + '\u0000' + key;
    }
}
