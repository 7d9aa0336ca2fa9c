package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.Rows.instant;
import static io.idempotent.runtime.internal.store.StoreTables.ATTEMPTS_VIEW;
import static io.idempotent.runtime.internal.store.StoreTables.ID;
import static io.idempotent.runtime.internal.store.StoreTables.LOG;
import static io.idempotent.runtime.internal.store.StoreTables.LOG_COLUMNS;
import static io.idempotent.runtime.internal.store.StoreTables.LOG_ORDER;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.AttemptRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The attempt log of one store and its answers: a row for each attempt and each answer that
 * changed nothing (those batched by the {@link AnswerLog}, which this class owns and feeds), the
 * end of an attempt on its record or in the log, and the log read a page at a time. Also the SQL
 * by which a take-over moves the attempt on a record into the log and a change ends it.
 */
final class AttemptLog implements AutoCloseable {

    /** Copies the attempt on a record to the log, as it stands (running, ended, or died running). */
    static final String MOVE_ATTEMPT_TO_LOG = "INSERT INTO " + LOG + " (" + LOG_COLUMNS + ") SELECT attempt_id,"
            + " tool, operation_key, attempt_outcome, attempt_token, payload_hash, attempt_downstream_id,"
            + " attempt_detail, attempt_started_at, attempt_ended_at FROM tool_operations WHERE tool = ? AND"
            + " operation_key = ? AND attempt_id IS NOT NULL";

    /**
     * Ends the attempt on a record with an outcome: {@code ?} outcome, downstream id (null keeps
     * what is there) and detail.
     */
    static final String ATTEMPT_ENDS = "attempt_outcome = ?, attempt_downstream_id = COALESCE(?,"
            + " attempt_downstream_id), attempt_detail = ?, attempt_ended_at = CURRENT_TIMESTAMP";

    static Params attemptEnd(AttemptOutcome outcome, String downstreamId, String detail) {
        return new Params().str(outcome.name()).str(downstreamId).str(detail);
    }

    private final StoreDatabase db;
    private final AnswerLog answers;
    /** Whether answers may wait in {@link #answers} ({@link AnswerLogLimits#deferred()}). */
    private final boolean deferred;

    AttemptLog(String name, StoreDatabase db, AnswerLogLimits answerLimits, AnswerLog.Pacing pacing) {
        this.db = db;
        this.answers = new AnswerLog(name, this::writeAnswers, answerLimits, pacing);
        this.deferred = answerLimits.deferred();
    }

    /** See {@link OperationStore#logAttempt}: an answer dated by its read may wait in the {@link AnswerLog}. */
    void logAttempt(AttemptRow r) {
        if (r.at() != null && deferred && AnswerLog.DEFERRED.contains(r.outcome()) && answers.add(r)) {
            return;
        }
        if (r.at() != null) {
            writeAnswers(List.of(r));
            return;
        }
        db.execute("INSERT INTO " + LOG + " (" + LOG_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP,"
                + " CURRENT_TIMESTAMP)", "log an attempt in", answerParams(r)::bind);
    }

    /** An answer's values, in the order of {@link StoreTables#LOG_COLUMNS} up to its times. */
    private static Params answerParams(AttemptRow r) {
        return new Params().str(r.attemptId()).str(r.tool()).str(r.key()).str(r.outcome().name()).lng(r.leaseToken())
                .str(r.payloadHash()).str(r.downstreamId()).str(r.detail());
    }

    /**
     * Writes answers dated by the read they were decided on: on PostgreSQL one {@code INSERT} of
     * every row (each column bound as one array), which the server runs as one statement where a
     * JDBC batch would run one per row; on H2 a JDBC batch.
     */
    private void writeAnswers(List<AttemptRow> batch) {
        db.ensureSchema();
        try (Connection c = db.connection()) {
            if (db.dialect().dataModifyingWith()) {
                insertAnswersFromArrays(c, batch);
                return;
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + LOG + " (" + LOG_COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (AttemptRow r : batch) {
                    answerParams(r).time(r.at()).time(r.at()).bind(ps);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        } catch (SQLException e) {
            throw db.unavailable("log answers in", e);
        }
    }

    private static final String INSERT_ANSWERS_FROM_ARRAYS = "INSERT INTO " + LOG + " (" + LOG_COLUMNS
            + ") SELECT a, t, k, o, l, h, d, x, s, s FROM unnest(CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]),"
            + " CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]), CAST(? AS BIGINT[]), CAST(? AS VARCHAR[]),"
            + " CAST(? AS VARCHAR[]), CAST(? AS TEXT[]), CAST(? AS BIGINT[])) AS u(a, t, k, o, l, h, d, x, m),"
            // The answer's time in microseconds since the epoch: an instant whatever the session's
            // time zone, and much cheaper to send than its text.
            + " LATERAL (SELECT TIMESTAMP WITH TIME ZONE 'epoch' + m * INTERVAL '1 microsecond') AS w(s)";

    private static void insertAnswersFromArrays(Connection c, List<AttemptRow> batch) throws SQLException {
        int n = batch.size();
        String[][] text = new String[7][n];
        Long[] tokens = new Long[n];
        Long[] micros = new Long[n];
        for (int i = 0; i < n; i++) {
            AttemptRow r = batch.get(i);
            text[0][i] = r.attemptId();
            tokens[i] = r.leaseToken();
            text[1][i] = r.tool();
            text[2][i] = r.key();
            text[3][i] = r.outcome().name();
            text[4][i] = r.payloadHash();
            text[5][i] = r.downstreamId();
            text[6][i] = r.detail();
            micros[i] = Math.addExact(Math.multiplyExact(r.at().getEpochSecond(), 1_000_000L), r.at().getNano() / 1000);
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT_ANSWERS_FROM_ARRAYS)) {
            ps.setArray(1, c.createArrayOf("varchar", text[0]));
            ps.setArray(2, c.createArrayOf("varchar", text[1]));
            ps.setArray(3, c.createArrayOf("varchar", text[2]));
            ps.setArray(4, c.createArrayOf("varchar", text[3]));
            ps.setArray(5, c.createArrayOf("int8", tokens));
            ps.setArray(6, c.createArrayOf("varchar", text[4]));
            ps.setArray(7, c.createArrayOf("varchar", text[5]));
            ps.setArray(8, c.createArrayOf("text", text[6]));
            ps.setArray(9, c.createArrayOf("int8", micros));
            ps.executeUpdate();
        }
    }

    /** Writes the answers queued so far. */
    void flush() {
        answers.flush();
    }

    /** See {@link OperationStore#onRefusedAnswer}. */
    void onRefusedAnswer(java.util.function.Consumer<String> perTool) {
        answers.onRefusedRow(perTool);
    }

    /** The answers held in memory now: the gauge of {@link AnswerLogLimits#queueSize()}. */
    int queuedAnswers() {
        return answers.queued();
    }

    /** How long closing tries to write the queued answers. */
    Duration closeTimeout() {
        return answers.closeTimeout();
    }

    /** See {@link OperationStore#endAttempt}. */
    void endAttempt(String tool, String key, String attemptId, AttemptOutcome outcome, String downstreamId,
            String detail) {
        // On its record while no take-over replaced it, else in the log. The record first: a
        // take-over that moves the attempt commits before either statement reads, or after both.
        Params end = attemptEnd(outcome, downstreamId, detail).str(tool).str(key).str(attemptId);
        if (db.execute("UPDATE tool_operations SET " + ATTEMPT_ENDS + " WHERE " + ID + " AND attempt_id = ?"
                + " AND attempt_outcome = 'RUNNING'", "log an attempt in", end::bind) == 0) {
            db.execute("UPDATE " + LOG + " SET outcome = ?, downstream_id = COALESCE(?, downstream_id), detail = ?,"
                    + " ended_at = CURRENT_TIMESTAMP WHERE " + ID + " AND attempt_id = ? AND outcome = 'RUNNING'",
                    "log an attempt in", end::bind);
        }
    }

    /** See {@link OperationStore#attempts}: what is queued is written first. */
    AttemptPage attempts(String tool, String key, Set<AttemptOutcome> outcomes, int offset, int limit) {
        db.ensureSchema();
        answers.flush();
        // Only placeholders are built here: every outcome, the key, the offset and the limit are bound.
        List<AttemptOutcome> only = outcomes.containsAll(EnumSet.allOf(AttemptOutcome.class)) ? List.of()
                : List.copyOf(outcomes);
        String where = " FROM " + ATTEMPTS_VIEW + " WHERE " + ID + (only.isEmpty() ? ""
                : " AND outcome IN (" + String.join(", ", java.util.Collections.nCopies(only.size(), "?")) + ")");
        try (Connection c = db.connection();
                PreparedStatement count = c.prepareStatement("SELECT COUNT(*)" + where);
                PreparedStatement page = c.prepareStatement("SELECT attempt_id, outcome, lease_token, downstream_id,"
                        + " detail, started_at, ended_at" + where + " ORDER BY " + LOG_ORDER + " LIMIT ? OFFSET ?")) {
            int next = bindAttemptFilter(count, tool, key, only);
            long total;
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                total = rs.getLong(1);
            }
            next = bindAttemptFilter(page, tool, key, only);
            page.setInt(next, limit);
            page.setLong(next + 1, offset);
            List<AttemptRecord> list = new ArrayList<>();
            try (ResultSet rs = page.executeQuery()) {
                while (rs.next()) {
                    list.add(new AttemptRecord(rs.getString(1), AttemptOutcome.valueOf(rs.getString(2)), rs.getLong(3),
                            rs.getString(4), rs.getString(5), instant(rs, 6), instant(rs, 7)));
                }
            }
            // Answers written between the two reads are counted once they are on a page.
            return new AttemptPage(list, offset, list.isEmpty() ? total : Math.max(total, offset + (long) list.size()));
        } catch (SQLException e) {
            throw db.unavailable("read the attempt log from", e);
        }
    }

    /** Binds the key and the outcomes of an attempt log read; returns the next parameter's index. */
    private static int bindAttemptFilter(PreparedStatement ps, String tool, String key, List<AttemptOutcome> outcomes)
            throws SQLException {
        bindId(ps, 1, tool, key);
        int i = 3;
        for (AttemptOutcome outcome : outcomes) {
            ps.setString(i++, outcome.name());
        }
        return i;
    }

    private static void bindId(PreparedStatement ps, int first, String tool, String key) throws SQLException {
        ps.setString(first, tool);
        ps.setString(first + 1, key);
    }

    /** Writes the queued answers, within the close timeout, before the store's pool closes. */
    @Override
    public void close() {
        answers.close();
    }
}
