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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * Client-side group commit of completions on PostgreSQL (issue 39): completions that callers
 * send while another completion of the store is in flight wait in a queue, and the next of them
 * to run takes every one queued (at most {@link #MAX_BATCH}) into one statement ({@code UPDATE
 * ... FROM unnest(arrays)}, one transaction, one WAL flush), and hands each caller its own
 * outcome. A lone caller never waits: it finds nothing in flight and sends its completion alone,
 * as the single statement it always was. Each row keeps its own guard (in progress, the lease
 * token, the attempt id), so fencing is unchanged: a row whose guard no longer holds comes back
 * as {@link Transition.LostRace} to its own caller only, who then handles a lost record as
 * before. When the server refuses a value of the batch (a data or integrity error, SQLState class
 * 22 or 23), nothing of it was written and every completion in it is sent again alone, so that
 * one row's value never fails another's; any other failure (a lost connection, after which the
 * batch may have committed) is each caller's own, as its single statement's would have been.
 */
final class CompletionBatches {

    /** The most completions one statement carries. */
    static final int MAX_BATCH = 64;

    /** One caller's completion. */
    record Completion(String tool, String key, long leaseToken, String attemptId, String resultJson,
            String downstreamId, String detail) {
    }

    private static final class Waiting {
        final Completion completion;
        final Thread thread = Thread.currentThread();
        volatile boolean done;
        Transition result;
        RuntimeException failure;

        Waiting(Completion completion) {
            this.completion = completion;
        }
    }

    private final StoreDatabase db;
    private final Function<Completion, Transition> alone;
    private final String sql;
    private final ConcurrentLinkedQueue<Waiting> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean inFlight = new AtomicBoolean();

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
        Waiting me = new Waiting(c);
        queue.add(me);
        while (!me.done) {
            if (inFlight.compareAndSet(false, true)) {
                try {
                    List<Waiting> batch = new ArrayList<>();
                    Waiting w;
                    while (batch.size() < MAX_BATCH && (w = queue.poll()) != null) {
                        batch.add(w);
                    }
                    if (!batch.isEmpty()) {
                        run(batch);
                    }
                } finally {
                    inFlight.set(false);
                    Waiting next = queue.peek();
                    if (next != null) {
                        LockSupport.unpark(next.thread);
                    }
                }
            } else if (!me.done) {
                // Woken when its batch is answered, or when it may run the next one; the bound
                // only guards against a wake-up missed between the check and the park.
                LockSupport.parkNanos(this, 1_000_000L);
            }
        }
        if (me.failure != null) {
            throw me.failure;
        }
        return me.result;
    }

    private void run(List<Waiting> batch) {
        if (batch.size() > 1) {
            try {
                Map<String, Transition> applied = together(batch);
                for (Waiting w : batch) {
                    Transition t = applied.get(id(w.completion.tool(), w.completion.key()));
                    answer(w, t != null ? t : new Transition.LostRace("complete"), null);
                }
                return;
            } catch (SQLException e) {
                String state = e.getSQLState();
                if (state == null || !(state.startsWith("22") || state.startsWith("23"))) {
                    for (Waiting w : batch) {
                        answer(w, null, db.unavailable("complete an operation in", e));
                    }
                    return;
                }
                // Refused values: sent again alone below, so that one row's value fails only its caller.
            } catch (RuntimeException e) {
                for (Waiting w : batch) {
                    answer(w, null, e);
                }
                return;
            }
        }
        for (Waiting w : batch) {
            try {
                answer(w, alone.apply(w.completion), null);
            } catch (RuntimeException e) {
                answer(w, null, e);
            }
        }
    }

    private static void answer(Waiting w, Transition result, RuntimeException failure) {
        w.result = result;
        w.failure = failure;
        w.done = true;
        LockSupport.unpark(w.thread);
    }

    private Map<String, Transition> together(List<Waiting> batch) throws SQLException {
        int n = batch.size();
        String[] tools = new String[n];
        String[] keys = new String[n];
        Long[] tokens = new Long[n];
        String[] attempts = new String[n];
        String[] results = new String[n];
        String[] downstream = new String[n];
        String[] details = new String[n];
        for (int i = 0; i < n; i++) {
            Completion c = batch.get(i).completion;
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
