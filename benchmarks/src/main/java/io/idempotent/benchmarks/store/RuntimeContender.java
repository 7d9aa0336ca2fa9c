package io.idempotent.benchmarks.store;

import io.idempotent.benchmarks.BenchTools;
import io.idempotent.benchmarks.BenchTools_IdempotentTools;
import io.idempotent.runtime.IdempotentRuntime;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

/**
 * This project: real tool calls through the runtime's public API with the tool's generated
 * binding ({@code IdempotentRuntime.call(binding, args, body)}), the path the agent's dispatcher
 * takes after its binding lookup: key, canonical payload and its SHA-256, claim, body, completion,
 * attempt log. The store is the application's data source, the same pool as the other contenders.
 * A replay's answer is written to the attempt log by the store's own thread after the call
 * returns: {@link #backlog()} counts the answers returned whose rows the log does not hold yet.
 */
final class RuntimeContender implements Contender {

    private final BenchTools tools = new BenchTools();
    private final LongAdder bodies = new LongAdder();
    private final LongAdder answers;
    private final DataSource dataSource;
    private final IdempotentRuntime runtime;
    private final String name;
    /** Whether this contender replays keys another runtime contender completed (it prepares none). */
    private final boolean replaysOthers;
    /** Attempt-log rows numbered before this contender's first answer (another contender's). */
    private final long logBefore;

    RuntimeContender(DataSource dataSource) throws SQLException {
        this(dataSource, "this project", -1, null);
    }

    /**
     * A contender named {@code name} whose stores answer repeats of up to {@code replayCache}
     * completed operations from memory (-1: the default); {@code sharing} another runtime
     * contender on the same database shares its count of answers, so that the backlog of either
     * (answers given minus rows the log numbered) counts both.
     */
    RuntimeContender(DataSource dataSource, String name, int replayCache, RuntimeContender sharing)
            throws SQLException {
        this.dataSource = dataSource;
        this.name = name;
        IdempotentRuntime.Builder builder = IdempotentRuntime.builder().store("default", dataSource);
        if (replayCache >= 0) {
            builder.replayCache(replayCache);
        }
        runtime = builder.build();
        answers = sharing == null ? new LongAdder() : sharing.answers;
        replaysOthers = sharing != null;
        logBefore = sharing == null ? logRowsNumbered() : sharing.logBefore;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void fresh(String id) {
        long before = bodies.sum();
        BenchTools.Receipt receipt = call(id, true);
        if (receipt == null || !receipt.orderId().equals(id)) {
            throw new IllegalStateException("this project: a fresh call of " + id + " returned " + receipt);
        }
        if (bodies.sum() == before) {
            throw new IllegalStateException("this project: a fresh call of " + id + " did not run the body");
        }
    }

    @Override
    public void prepareReplays(java.util.List<String> ids) {
        if (!replaysOthers) {
            for (String id : ids) {
                fresh(id);
            }
        }
    }

    @Override
    public void replay(String id) {
        BenchTools.Receipt receipt = call(id, false);
        if (receipt == null || !receipt.orderId().equals(id)) {
            throw new IllegalStateException("this project: a replay of " + id + " returned " + receipt);
        }
        answers.increment();
    }

    /**
     * Answers returned minus attempt-log rows numbered since this contender started. The log's
     * identity numbers every row it inserts (cache 1), so this reads one value instead of counting
     * a table of millions of rows; a batch being inserted is counted as written a few milliseconds
     * before its commit. {@link #unwrittenAnswers()} checks the committed rows.
     */
    @Override
    public long backlog() throws SQLException {
        long given = answers.sum();
        return given - (logRowsNumbered() - logBefore);
    }

    /** Answers returned minus the committed rows of the log since this contender started (a full count). */
    long unwrittenAnswers() throws SQLException {
        long given = answers.sum();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM tool_operation_attempt_log")) {
            rs.next();
            return given - (rs.getLong(1) - logBefore);
        }
    }

    private long logRowsNumbered() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT CASE WHEN to_regclass('tool_operation_attempt_log') IS NULL"
                        + " THEN 0 ELSE COALESCE(pg_sequence_last_value(pg_get_serial_sequence("
                        + "'tool_operation_attempt_log', 'id')), 0) END")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public String updatedTable() {
        return "tool_operations";
    }

    /** One call; with {@code mayRun} false the body fails the run, because a replay must not run it. */
    BenchTools.Receipt call(String id, boolean mayRun) {
        return runtime.call(BenchTools_IdempotentTools.REFUND, new Object[] {id, 100L, "EUR"}, () -> {
            if (!mayRun) {
                throw new IllegalStateException("this project: the replay of " + id + " ran the body");
            }
            bodies.increment();
            return tools.refundPlain(id, 100L, "EUR");
        });
    }

    IdempotentRuntime runtime() {
        return runtime;
    }

    @Override
    public void close() {
        runtime.close();
    }
}
