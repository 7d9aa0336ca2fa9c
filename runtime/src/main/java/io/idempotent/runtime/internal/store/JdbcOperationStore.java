package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.OperationCount;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.ValueRejectedException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * The JDBC operation store, and the one class that writes {@code tool_operations} and
 * {@code tool_operation_attempt_log}: the operation state machine. Every change of an existing
 * row is built by {@link #transition}: one conditional {@code UPDATE} whose guard names the row
 * and the state the caller observed, returning the row as it left it (its new lease token), or a
 * {@link Transition.LostRace} when the guard no longer held.
 *
 * <p>The attempt that last ran the body is kept on the operation's row ({@code attempt_*}
 * columns): a claim writes it with the row, a completion or a failure ends it in the same
 * {@code UPDATE}, so a fresh call writes one row, twice. A take-over moves it to the log table in
 * the transaction that puts the new attempt in its place. The view {@code tool_operation_attempts}
 * shows the log's rows and the attempt on the record together. Answers that changed nothing (a
 * replay, a conflict, "in progress") are written in batches by the {@link AnswerLog}. All times
 * come from the database.
 */
public final class JdbcOperationStore implements OperationStore {

    /** The attempt log's past rows; the view {@code tool_operation_attempts} adds each record's own attempt. */
    private static final String LOG = "tool_operation_attempt_log";

    /** The attempt log as it is read: past rows and the attempt on each record, in order. */
    private static final String ATTEMPTS_VIEW = "tool_operation_attempts";

    /** The columns of a row of the attempt log that the store writes (its id is generated). */
    private static final String LOG_COLUMNS = "attempt_id, tool, operation_key, outcome, lease_token, payload_hash,"
            + " downstream_id, detail, started_at, ended_at";

    /** The order of the attempt log: a record's own attempt after past rows of the same instant. */
    private static final String LOG_ORDER = "started_at, latest, id";

    /** The operations that {@link #purgeExpired} deletes: finished, and past their retention. */
    private static final String EXPIRED = "expires_at <= CURRENT_TIMESTAMP AND status IN ('completed', 'failed_safe')";

    /**
     * How often preparing the schema, or a claim, is tried while an embedded H2 store changes
     * hands, and the pause between (each try's new connection also waits, up to the connect timeout).
     */
    private static final int HANDOVER_TRIES = 10;
    private static final long HANDOVER_PAUSE_NANOS = 100_000_000L;

    /** How often a claim re-reads a row that a concurrent insert had not yet made visible. */
    private static final int VISIBILITY_RETRIES = 50;

    private final String name;
    /** The store as messages name it: its name, database and URL without credentials. */
    private final String described;
    private final DataSource dataSource;
    /** Where the first connection comes from: unpooled, so that a refusal is reported at once. */
    private final DataSource firstConnection;
    private final Dialect dialect;
    private final SchemaMode schemaMode;
    private final AutoCloseable closer;
    private final Rows rows = new Rows();
    private final AnswerLog answers;
    /** The claim: PostgreSQL's read-or-insert, or H2's insert (which reads when refused). */
    private final String claimSql;
    private volatile boolean schemaReady;

    /**
     * @param name the store's name, for messages
     * @param closer closes the data source when the store closes (null when the caller owns it)
     */
    public JdbcOperationStore(String name, DataSource dataSource, Dialect dialect, SchemaMode schemaMode,
            AutoCloseable closer) {
        this(name, null, dataSource, dataSource, dialect, schemaMode, closer);
    }

    /**
     * @param name the store's name, for messages
     * @param location where the store is, for messages: its URL without credentials (null: not known)
     * @param dataSource the connections of every statement (the pool)
     * @param firstConnection the connection that the schema's preparation opens first, beside the
     *     pool's: a pool retries a refused connection until its timeout and then says only that it
     *     timed out, so a wrong password would be reported seconds late, and as "retry later"
     * @param closer closes the data source when the store closes (null when the caller owns it)
     */
    public JdbcOperationStore(String name, String location, DataSource dataSource, DataSource firstConnection,
            Dialect dialect, SchemaMode schemaMode, AutoCloseable closer) {
        this(name, location, dataSource, firstConnection, dialect, schemaMode, closer, AnswerLogLimits.DEFAULT);
    }

    /**
     * As {@link #JdbcOperationStore(String, String, DataSource, DataSource, Dialect, SchemaMode,
     * AutoCloseable)}, with the bound of the answers held in memory and the wait at close.
     */
    public JdbcOperationStore(String name, String location, DataSource dataSource, DataSource firstConnection,
            Dialect dialect, SchemaMode schemaMode, AutoCloseable closer, AnswerLogLimits answerLimits) {
        this.name = name;
        this.described = "store \"" + name + "\" (" + dialect.name() + (location == null ? "" : ", " + location) + ")";
        this.dataSource = dataSource;
        this.firstConnection = firstConnection;
        this.dialect = dialect;
        this.schemaMode = schemaMode;
        this.closer = closer;
        this.answers = new AnswerLog(name, this::writeAnswers, answerLimits);
        this.claimSql = dialect.dataModifyingWith() ? readOrInsertSql() : dialect.returning("INSERT INTO"
                + " tool_operations (" + NEW_OPERATION_COLUMNS + ") VALUES (" + newOperationValues() + ")", ROW_AFTER);
    }

    /** The dialect in use. */
    public Dialect dialect() {
        return dialect;
    }

    @Override
    public void ensureSchema() {
        ensureSchema("");
    }

    /** Prepares the schema once; {@code claimed} is what a failure says of a claim (see {@link #failure}). */
    private void ensureSchema(String claimed) {
        if (schemaReady) {
            return;
        }
        synchronized (this) {
            for (int attempt = 1; !schemaReady; attempt++) {
                Connection first = null;
                Connection c;
                try {
                    // A connection already waits out a handover, up to the store's connect timeout.
                    // The first one is opened directly, and held until the pool has one of its
                    // own (an embedded H2 database stays open in between).
                    first = firstConnection == dataSource ? null : firstConnection.getConnection();
                    c = dataSource.getConnection();
                } catch (SQLException e) {
                    closeQuietly(first, e);
                    throw failure("connect to", e, claimed);
                }
                try (Connection held = first; c) {
                    prepareSchema(c, claimed);
                    schemaReady = true;
                } catch (SQLException e) {
                    // Preparing the schema is idempotent: an embedded store that changes hands
                    // under an open connection is waited for as a new connection would wait.
                    if (!SqlStates.isH2Handover(e) || attempt >= HANDOVER_TRIES) {
                        throw failure("prepare the schema of", e, claimed);
                    }
                    LockSupport.parkNanos(HANDOVER_PAUSE_NANOS);
                }
            }
        }
    }

    /**
     * Refuses a read-only session, creates the schema (in {@code create} mode) and checks it. A
     * schema that is not this library's (class 42: another application's table, an older
     * schema, a missing table in {@code validate} mode) is a configuration error that says which
     * table or column is missing.
     */
    private void prepareSchema(Connection c, String claimed) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(dialect.readOnlyQuery())) {
            if (rs.next() && rs.getBoolean(1)) {
                // Classified like the database's own refusal of a write (read_only_sql_transaction).
                throw new SQLException("the session is read-only", "25006");
            }
        }
        try {
            if (schemaMode == SchemaMode.CREATE) {
                createSchema(c);
            }
            validateSchema(c);
        } catch (SQLException e) {
            if (!SqlStates.isSchemaMismatch(e)) {
                throw e;
            }
            throw schemaMismatch(c, e, claimed);
        }
    }

    private static void closeQuietly(Connection c, Exception failure) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
    }

    private void createSchema(Connection c) throws SQLException {
        String ddl = readResource(dialect.migrationResource());
        try (Statement st = c.createStatement()) {
            for (String sql : statements(ddl)) {
                try {
                    st.execute(sql);
                } catch (SQLException e) {
                    // Two JVMs creating the schema at once: the loser's CREATE may fail on an
                    // object the winner just made. Validation below says whether all is there.
                    if (!isConcurrentDdl(e)) {
                        throw e;
                    }
                }
            }
        }
    }

    /**
     * The statements of a migration, without its {@code --} comments: split at each {@code ;}
     * outside a quoted string and outside a dollar-quoted body (a function's body has its own).
     */
    static List<String> statements(String ddl) {
        List<String> statements = new ArrayList<>();
        StringBuilder statement = new StringBuilder();
        String dollarQuote = null;
        boolean inString = false;
        for (int i = 0; i < ddl.length(); i++) {
            char ch = ddl.charAt(i);
            if (dollarQuote == null && !inString && ch == '-' && ddl.startsWith("--", i)) {
                int end = ddl.indexOf('\n', i);
                i = end < 0 ? ddl.length() : end - 1;
                continue;
            }
            if (dollarQuote == null && ch == '\'') {
                inString = !inString;
            } else if (!inString && ch == '$') {
                int end = ddl.indexOf('$', i + 1);
                String tag = end < 0 ? null : ddl.substring(i, end + 1);
                if (tag != null && tag.matches("\\$[A-Za-z_]*\\$") && (dollarQuote == null || dollarQuote.equals(tag))) {
                    dollarQuote = dollarQuote == null ? tag : null;
                    statement.append(tag);
                    i = end;
                    continue;
                }
            } else if (ch == ';' && dollarQuote == null && !inString) {
                add(statements, statement);
                continue;
            }
            statement.append(ch);
        }
        add(statements, statement);
        return statements;
    }

    private static void add(List<String> statements, StringBuilder statement) {
        String sql = statement.toString().strip();
        if (!sql.isEmpty()) {
            statements.add(sql);
        }
        statement.setLength(0);
    }

    private static boolean isConcurrentDdl(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "42P07".equals(state) || "42710".equals(state) || "42S01".equals(state)
                || "42S11".equals(state) || "40001".equals(state) || "HYT00".equals(state)
                // PostgreSQL: two CREATE OR REPLACE VIEW of the attempt log at once.
                || "XX000".equals(state) && String.valueOf(e.getMessage()).contains("tuple concurrently updated")
                // H2: CREATE INDEX IF NOT EXISTS racing another session's CREATE INDEX.
                || "HY000".equals(state) && String.valueOf(e.getMessage()).contains("object already exists");
    }

    /**
     * The tables and views of the schema and the columns the store reads of each; {@code latest}
     * only the view has, so an older schema's table of that name is refused.
     */
    private static final Map<String, List<String>> SCHEMA = schema();

    private static Map<String, List<String>> schema() {
        List<String> operations = new ArrayList<>();
        for (String column : Rows.NAMES) {
            if (!column.equals("lease_expired") && !column.equals("read_at")) {
                operations.add(column);
            }
        }
        operations.addAll(List.of("retention_ms", "attempt_id", "attempt_outcome", "attempt_token",
                "attempt_downstream_id", "attempt_detail", "attempt_started_at", "attempt_ended_at"));
        List<String> log = new ArrayList<>(List.of("id"));
        log.addAll(List.of(LOG_COLUMNS.split(", ")));
        List<String> view = new ArrayList<>(log);
        view.add("latest");
        Map<String, List<String>> schema = new LinkedHashMap<>();
        schema.put("tool_operations", List.copyOf(operations));
        schema.put(LOG, List.copyOf(log));
        schema.put(ATTEMPTS_VIEW, List.copyOf(view));
        return java.util.Collections.unmodifiableMap(schema);
    }

    /**
     * Checks that every table and column exists: each query compiles only if they do. A failure
     * is thrown as it is; the caller tells a schema that is not this library's (class 42) from a
     * store that did not answer, which the next call checks again.
     */
    private static void validateSchema(Connection c) throws SQLException {
        for (Map.Entry<String, List<String>> table : SCHEMA.entrySet()) {
            try (Statement st = c.createStatement(); ResultSet ignored = st.executeQuery("SELECT "
                    + String.join(", ", table.getValue()) + " FROM " + table.getKey() + " WHERE 1 = 0")) {
                // compiled: the table and its columns exist
            }
        }
    }

    /**
     * The configuration error of a schema that is not this library's, naming the table or the
     * columns that are missing (read from the database's catalogue, never from its message,
     * which quotes SQL).
     */
    private StoreConfigurationException schemaMismatch(Connection c, SQLException e, String claimed) {
        SqlStates.Failure failure = SqlStates.classify(e);
        String code = failure.code();
        String missing;
        try {
            missing = missingFromSchema(c);
        } catch (SQLException unreadable) {
            e.addSuppressed(unreadable);
            missing = null;
        }
        String migration = "the migration " + dialect.migrationResource() + " from idempotent-runtime.jar";
        if (missing == null) {
            return new StoreConfigurationException(null, null, "could not prepare the schema of " + described + ": "
                    + failure.problem() + " (" + code + ")" + claimed, failure.advice(), e);
        }
        boolean foreign = missing.contains(" exists but ");
        String happened = "could not prepare the schema of " + described + ": the schema is missing or incomplete: "
                + missing + " (" + code + ")"
                + (foreign ? "; it belongs to another application or an older schema of this library" : "")
                + claimed;
        String advice;
        if (foreign) {
            advice = "Point store.url at a database or schema of the store's own (or rename that table); for this"
                    + " library's older schema, apply " + migration;
        } else if (schemaMode == SchemaMode.CREATE) {
            advice = "Grant the store's user CREATE in its schema, or apply " + migration + " and set"
                    + " store.schema=validate";
        } else {
            advice = "Apply " + migration + " (Flyway or Liquibase), or set store.schema=create";
        }
        return new StoreConfigurationException(null, null, happened, advice, e);
    }

    /** What the schema lacks ("table T does not exist", "table T exists but has no column C"), or null. */
    private static String missingFromSchema(Connection c) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        for (Map.Entry<String, List<String>> table : SCHEMA.entrySet()) {
            Set<String> present = columnsOf(c, meta, table.getKey());
            String kind = table.getKey().equals(ATTEMPTS_VIEW) ? "view " : "table ";
            if (present.isEmpty()) {
                return kind + table.getKey() + " does not exist";
            }
            List<String> missing = table.getValue().stream().filter(column -> !present.contains(column)).toList();
            if (!missing.isEmpty()) {
                int shown = Math.min(missing.size(), 5);
                return kind + table.getKey() + " exists but has no column" + (missing.size() > 1 ? "s " : " ")
                        + String.join(", ", missing.subList(0, shown))
                        + (missing.size() > shown ? " and " + (missing.size() - shown) + " more" : "");
            }
        }
        return null;
    }

    /** The column names (lower case) of {@code table} in the connection's current schema. */
    private static Set<String> columnsOf(Connection c, DatabaseMetaData meta, String table) throws SQLException {
        String escape = meta.getSearchStringEscape();
        String schema = c.getSchema();
        Set<String> columns = new HashSet<>();
        // PostgreSQL keeps unquoted names in lower case, H2 in upper case.
        for (String spelled : List.of(table, table.toUpperCase(Locale.ROOT))) {
            String pattern = escape == null ? spelled : spelled.replace("_", escape + "_");
            try (ResultSet rs = meta.getColumns(null, schema, pattern, null)) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                }
            }
            if (!columns.isEmpty()) {
                break;
            }
        }
        return columns;
    }

    @Override
    public ClaimResult claim(ClaimRequest request) {
        ensureSchema(NOTHING_CLAIMED);
        for (int attempt = 1; ; attempt++) {
            try {
                return claimOnce(request);
            } catch (HandoverDuringClaim handover) {
                // A claim is safe to make again: one that did commit before the store changed
                // hands is found by the next try as this key's row (in progress), never claimed twice.
                if (attempt >= HANDOVER_TRIES) {
                    throw failure("claim the key in", handover.failure, MAY_HAVE_CLAIMED);
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
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw failure("connect to", e, NOTHING_CLAIMED);
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
            throw new StoreUnavailableException(request.tool(), request.key(), described + ": the key kept"
                    + " conflicting with a row that never became visible; nothing was claimed");
        } catch (SQLException e) {
            if (SqlStates.isH2Handover(e)) {
                throw new HandoverDuringClaim(e);
            }
            // The statement may have reached the database and committed before the reply was lost.
            throw failure("claim the key in", e, MAY_HAVE_CLAIMED);
        }
    }

    /** The columns a change returns: the row as the change left it. */
    private static final String ROW_AFTER = "lease_token, attempts, lease_until";

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
                .lng(r.retention().toMillis()).str(r.attemptId());
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
                + " tool_operations_pk DO NOTHING RETURNING TRUE AS inserted, " + ROW_AFTER + ") SELECT * FROM existing"
                + " UNION ALL SELECT " + created + " FROM created";
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
        return find(c, request.tool(), request.key()).<ClaimResult>map(ClaimResult.Existing::new).orElse(null);
    }

    @Override
    public Optional<StoredOperation> find(String tool, String key) {
        ensureSchema();
        try (Connection c = dataSource.getConnection()) {
            return find(c, tool, key);
        } catch (SQLException e) {
            throw unavailable("read", e);
        }
    }

    private Optional<StoredOperation> find(Connection c, String tool, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT " + rows.columns("") + " FROM tool_operations WHERE " + ID)) {
            new Params().str(tool).str(key).bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rows.read(rs)) : Optional.empty();
            }
        }
    }

    /** The condition that names one operation. */
    private static final String ID = "tool = ? AND operation_key = ?";

    // The state machine. Each transition says what it writes and what the row must still be.

    @Override
    public Transition takeOver(Takeover t) {
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
        // The new attempt's columns read the row as it was: its token and number are the old plus one.
        String set = "status = 'in_progress', lease_token = lease_token + 1, lease_until = " + dialect.nowPlusMillis()
                + ", effect_started = ?, attempts = attempts + 1, released_by = NULL, updated_at = CURRENT_TIMESTAMP,"
                + " retention_ms = ?, expires_at = " + dialect.nowPlusMillis() + ", attempt_id = ?,"
                + " attempt_outcome = 'RUNNING', attempt_token = lease_token + 1, attempt_downstream_id = NULL,"
                + " attempt_detail = CONCAT('attempt ', CAST(attempts + 1 AS VARCHAR(11))),"
                + " attempt_started_at = CURRENT_TIMESTAMP, attempt_ended_at = NULL";
        Params setParams = new Params().lng(t.lease().toMillis()).bool(t.effectStartsWithBody())
                .lng(t.retention().toMillis()).lng(t.retention().toMillis()).str(t.attemptId());
        ensureSchema();
        try (Connection c = dataSource.getConnection()) {
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
                return changed(c, "take over", dialect.returning("UPDATE tool_operations SET " + set + " WHERE "
                        + guard.sql, ROW_AFTER), setParams.then(guard.params));
            });
        } catch (SQLException e) {
            throw unavailable("take over an operation in", e);
        }
    }

    /** Copies the attempt on a record to the log, as it stands (running, ended, or died running). */
    private static final String MOVE_ATTEMPT_TO_LOG = "INSERT INTO " + LOG + " (" + LOG_COLUMNS + ") SELECT attempt_id,"
            + " tool, operation_key, attempt_outcome, attempt_token, payload_hash, attempt_downstream_id,"
            + " attempt_detail, attempt_started_at, attempt_ended_at FROM tool_operations WHERE tool = ? AND"
            + " operation_key = ? AND attempt_id IS NOT NULL";

    /**
     * Ends the attempt on a record with an outcome: {@code ?} outcome, downstream id (null keeps
     * what is there) and detail.
     */
    private static final String ATTEMPT_ENDS = "attempt_outcome = ?, attempt_downstream_id = COALESCE(?,"
            + " attempt_downstream_id), attempt_detail = ?, attempt_ended_at = CURRENT_TIMESTAMP";

    private static Params attemptEnd(AttemptOutcome outcome, String downstreamId, String detail) {
        return new Params().str(outcome.name()).str(downstreamId).str(detail);
    }

    @Override
    public Transition expireLease(String tool, String key, long expectedToken, boolean safe, String errorJson) {
        Guard guard = Guard.of(tool, key).status(OperationStatus.IN_PROGRESS).token(expectedToken).leaseExpired();
        if (safe) {
            guard.effectNotStarted();
        }
        return transition("expire the lease", "status = ?, lease_token = lease_token + 1, lease_until = NULL,"
                + " error_json = ?, updated_at = CURRENT_TIMESTAMP, expires_at = " + restartRetention(),
                new Params().str(endStatus(safe)).str(errorJson), guard);
    }

    @Override
    public Transition markEffectStarting(String tool, String key, long leaseToken, String downstreamId,
            Duration lease) {
        return transition("mark the effect boundary", "effect_started = TRUE, downstream_id = ?, lease_until = "
                + dialect.nowPlusMillis() + ", updated_at = CURRENT_TIMESTAMP",
                new Params().str(downstreamId).lng(lease.toMillis()),
                Guard.of(tool, key).status(OperationStatus.IN_PROGRESS).token(leaseToken).leaseLive());
    }

    @Override
    public Transition heartbeat(String tool, String key, long leaseToken, Duration lease) {
        return transition("extend the lease", "lease_until = " + dialect.nowPlusMillis(),
                new Params().lng(lease.toMillis()),
                Guard.of(tool, key).status(OperationStatus.IN_PROGRESS).token(leaseToken).leaseLive());
    }

    @Override
    public Transition complete(String tool, String key, long leaseToken, String resultJson, AttemptEnd end) {
        return transition("complete", "status = 'completed', result_json = ?, error_json = NULL, lease_until = NULL,"
                + " updated_at = CURRENT_TIMESTAMP, expires_at = " + restartRetention() + ", " + ATTEMPT_ENDS,
                new Params().str(resultJson).then(attemptEnd(AttemptOutcome.COMPLETED, end.downstreamId(),
                        end.detail())),
                Guard.of(tool, key).status(OperationStatus.IN_PROGRESS).token(leaseToken));
    }

    @Override
    public Transition fail(String tool, String key, long leaseToken, boolean safe, String errorJson,
            AttemptEnd end) {
        return transition("record the failure", "status = ?, error_json = ?, lease_until = NULL, effect_started = ?,"
                + " updated_at = CURRENT_TIMESTAMP, expires_at = " + restartRetention() + ", " + ATTEMPT_ENDS,
                new Params().str(endStatus(safe)).str(errorJson).bool(!safe).then(attemptEnd(safe
                        ? AttemptOutcome.FAILED_SAFE : AttemptOutcome.NEEDS_RECONCILIATION, end.downstreamId(),
                        end.detail())),
                Guard.of(tool, key).status(OperationStatus.IN_PROGRESS).token(leaseToken));
    }

    @Override
    public Transition settleApplied(String tool, String key, long expectedToken, String resultJson) {
        return transition("settle as applied", "status = 'completed', result_json = ?, lease_token = lease_token + 1,"
                + " updated_at = CURRENT_TIMESTAMP, expires_at = " + restartRetention(), new Params().str(resultJson),
                Guard.of(tool, key).status(OperationStatus.NEEDS_RECONCILIATION).token(expectedToken));
    }

    @Override
    public Transition settleNotApplied(String tool, String key, long expectedToken, String releasedBy) {
        return transition("settle as not applied", "status = 'failed_safe', effect_started = FALSE, released_by = ?,"
                + " lease_token = lease_token + 1, updated_at = CURRENT_TIMESTAMP, expires_at = " + restartRetention(),
                new Params().str(releasedBy),
                Guard.of(tool, key).status(OperationStatus.NEEDS_RECONCILIATION).token(expectedToken));
    }

    /** Every ending restarts the record's retention, so its log is kept that long after it. */
    private String restartRetention() {
        return dialect.nowPlusMillis("retention_ms");
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
        ensureSchema();
        try (Connection c = dataSource.getConnection()) {
            return changed(c, what, dialect.returning("UPDATE tool_operations SET " + set + " WHERE " + guard.sql,
                    ROW_AFTER), setParams.then(guard.params));
        } catch (SQLException e) {
            throw unavailable(what + " an operation in", e);
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
                    throw new IllegalStateException(described + ": \"" + what + "\" changed more than one row; its"
                            + " guard must name one operation");
                }
                return applied;
            }
        }
    }

    private interface SqlWork<T> {
        T run() throws SQLException;
    }

    /** Runs {@code work} in one transaction on {@code c}, and leaves {@code c} in auto-commit mode. */
    private static <T> T inTransaction(Connection c, SqlWork<T> work) throws SQLException {
        c.setAutoCommit(false);
        try {
            T result = work.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    @Override
    public void logAttempt(AttemptRow r) {
        if (r.at() != null && AnswerLog.DEFERRED.contains(r.outcome()) && answers.add(r)) {
            return;
        }
        if (r.at() != null) {
            writeAnswers(List.of(r));
            return;
        }
        execute("INSERT INTO " + LOG + " (" + LOG_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP,"
                + " CURRENT_TIMESTAMP)", "log an attempt in", answerParams(r)::bind);
    }

    /** An answer's values, in the order of {@link #LOG_COLUMNS} up to its times. */
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
        ensureSchema();
        try (Connection c = dataSource.getConnection()) {
            if (dialect.dataModifyingWith()) {
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
            throw unavailable("log answers in", e);
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

    @Override
    public void flushAttemptLog() {
        answers.flush();
    }

    @Override
    public void endAttempt(String tool, String key, String attemptId, AttemptOutcome outcome, String downstreamId,
            String detail) {
        // On its record while no take-over replaced it, else in the log. The record first: a
        // take-over that moves the attempt commits before either statement reads, or after both.
        Params end = attemptEnd(outcome, downstreamId, detail).str(tool).str(key).str(attemptId);
        if (execute("UPDATE tool_operations SET " + ATTEMPT_ENDS + " WHERE " + ID + " AND attempt_id = ?"
                + " AND attempt_outcome = 'RUNNING'", "log an attempt in", end::bind) == 0) {
            execute("UPDATE " + LOG + " SET outcome = ?, downstream_id = COALESCE(?, downstream_id), detail = ?,"
                    + " ended_at = CURRENT_TIMESTAMP WHERE " + ID + " AND attempt_id = ? AND outcome = 'RUNNING'",
                    "log an attempt in", end::bind);
        }
    }

    @Override
    public AttemptPage attempts(String tool, String key, Set<AttemptOutcome> outcomes, int offset, int limit) {
        ensureSchema();
        answers.flush();
        // Only placeholders are built here: every outcome, the key, the offset and the limit are bound.
        List<AttemptOutcome> only = outcomes.containsAll(EnumSet.allOf(AttemptOutcome.class)) ? List.of()
                : List.copyOf(outcomes);
        String where = " FROM " + ATTEMPTS_VIEW + " WHERE " + ID + (only.isEmpty() ? ""
                : " AND outcome IN (" + String.join(", ", java.util.Collections.nCopies(only.size(), "?")) + ")");
        try (Connection c = dataSource.getConnection();
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
            throw unavailable("read the attempt log from", e);
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

    @Override
    public List<StoredOperation> awaitingReconciliation(String tool, Duration olderThan, int limit) {
        return inState(OperationStatus.NEEDS_RECONCILIATION, tool, olderThan, limit);
    }

    @Override
    public List<StoredOperation> inProgress(int limit) {
        return inState(OperationStatus.IN_PROGRESS, null, Duration.ZERO, limit);
    }

    /**
     * The oldest operations in {@code status} (of {@code tool}, when given, and claimed at least
     * {@code olderThan} ago by the database's clock), through that state's (partial) index.
     */
    private List<StoredOperation> inState(OperationStatus status, String tool, Duration olderThan, int limit) {
        ensureSchema();
        String sql = "SELECT " + rows.columns("") + " FROM tool_operations WHERE status = '" + status.column() + "'"
                + (tool == null ? "" : " AND tool = ?") + " AND created_at <= " + dialect.nowPlusMillis()
                + " ORDER BY created_at FETCH FIRST ? ROWS ONLY";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
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
            throw unavailable("read", e);
        }
    }

    @Override
    public List<OperationCount> countByToolAndStatus(OperationStatus onlyStatus) {
        ensureSchema();
        String sql = "SELECT tool, status, COUNT(*) FROM tool_operations"
                + (onlyStatus == null ? "" : " WHERE status = ?") + " GROUP BY tool, status ORDER BY tool, status";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
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
            throw unavailable("count the operations in", e);
        }
    }

    @Override
    public int countExpired() {
        ensureSchema();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM tool_operations WHERE " + EXPIRED)) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw unavailable("count expired operations in", e);
        }
    }

    /**
     * One consistent cut: the records deleted are exactly those whose logs are deleted, decided
     * once by one clock. PostgreSQL does it in one statement; H2 in one transaction that deletes
     * the logs of the records its first statement deleted.
     */
    @Override
    public int purgeExpired() {
        String expired = "DELETE FROM tool_operations WHERE " + EXPIRED;
        ensureSchema();
        try (Connection c = dataSource.getConnection()) {
            if (dialect.dataModifyingWith()) {
                try (PreparedStatement ps = c.prepareStatement("WITH gone AS (" + dialect.deleted(expired,
                        "tool, operation_key") + "), logs AS (DELETE FROM " + LOG + " WHERE (tool,"
                        + " operation_key) IN (SELECT tool, operation_key FROM gone)) SELECT count(*) FROM gone");
                        ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
            return purgeInOneTransaction(c, expired);
        } catch (SQLException e) {
            throw unavailable("purge expired operations from", e);
        }
    }

    private int purgeInOneTransaction(Connection c, String expired) throws SQLException {
        c.setAutoCommit(false);
        try {
            int purged = 0;
            try (PreparedStatement gone = c.prepareStatement(dialect.deleted(expired, "tool, operation_key"));
                    PreparedStatement logs = c.prepareStatement("DELETE FROM " + LOG + " WHERE " + ID);
                    ResultSet rs = gone.executeQuery()) {
                while (rs.next()) {
                    new Params().str(rs.getString(1)).str(rs.getString(2)).bind(logs);
                    logs.addBatch();
                    purged++;
                }
                if (purged > 0) {
                    logs.executeBatch();
                }
            }
            c.commit();
            return purged;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    /** The answers held in memory now (tests). */
    int queuedAnswers() {
        return answers.queued();
    }

    @Override
    public Duration closeTimeout() {
        return answers.closeTimeout();
    }

    /** Writes the queued answers (bounded by the close timeout), then closes the pool. */
    @Override
    public void close() {
        answers.close();
        if (closer != null) {
            try {
                closer.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing store " + name, e);
            }
        }
    }

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** Runs one write of the attempt log; returns how many rows it wrote. */
    private int execute(String sql, String what, Binder binder) {
        ensureSchema();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw unavailable(what, e);
        }
    }

    /** Statement parameters in the order of their {@code ?}. */
    static final class Params {

        private interface Param {
            void bind(PreparedStatement ps, int index) throws SQLException;
        }

        private final List<Param> params = new ArrayList<>();

        Params str(String value) {
            params.add((ps, i) -> ps.setString(i, value));
            return this;
        }

        Params lng(long value) {
            params.add((ps, i) -> ps.setLong(i, value));
            return this;
        }

        Params time(java.time.Instant value) {
            params.add((ps, i) -> ps.setObject(i, OffsetDateTime.ofInstant(value, java.time.ZoneOffset.UTC)));
            return this;
        }

        Params bool(boolean value) {
            params.add((ps, i) -> ps.setBoolean(i, value));
            return this;
        }

        /** These parameters followed by {@code more}. */
        Params then(Params more) {
            Params all = new Params();
            all.params.addAll(params);
            all.params.addAll(more.params);
            return all;
        }

        void bind(PreparedStatement ps) throws SQLException {
            for (int i = 0; i < params.size(); i++) {
                params.get(i).bind(ps, i + 1);
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

    /** What a claim that failed before any statement was sent says about the claim. */
    private static final String NOTHING_CLAIMED = "; nothing was claimed";

    /** What a claim whose statement failed says, when the store may answer again. */
    private static final String MAY_HAVE_CLAIMED = "; the claim may have been recorded before the store failed";

    /** The advice of a claim that may have been recorded. */
    private static final String RETRY_RECORDED = "Retry the call later with the same key: a recorded claim"
            + " answers as in progress until its lease expires";

    private RuntimeException unavailable(String what, SQLException e) {
        return failure(what, e, "");
    }

    /**
     * The exception for a failure of the store, by {@link SqlStates#classify}: never the database's
     * message, which may quote SQL or a refused value. {@code claimed} says what became of a
     * claim ({@link #NOTHING_CLAIMED}, {@link #MAY_HAVE_CLAIMED}, or "" for another statement);
     * only a store that may answer again can have recorded a claim its caller did not hear of.
     */
    private RuntimeException failure(String what, SQLException e, String claimed) {
        return failure(described, what, e, claimed);
    }

    /**
     * The exception for a failure of the store {@code described} ("store \"default\" (h2, URL)")
     * while it tried {@code what} ("connect to"); see {@link #failure(String, SQLException, String)}.
     */
    public static RuntimeException failure(String described, String what, SQLException e, String claimed) {
        SqlStates.Failure failure = SqlStates.classify(e);
        String happened = "could not " + what + " " + described + ": " + failure.problem()
                + (failure.code() == null ? "" : " (" + failure.code() + ")");
        return switch (failure.kind()) {
            case VALUE_REJECTED -> new ValueRejectedException(null, null, happened, failure.advice(), e);
            case CONFIGURATION -> new StoreConfigurationException(null, null, happened
                    + (claimed.isEmpty() ? "" : NOTHING_CLAIMED), failure.advice(), e);
            case UNAVAILABLE -> claimed.equals(MAY_HAVE_CLAIMED)
                    ? new StoreUnavailableException(null, null, happened + claimed, RETRY_RECORDED, e)
                    : new StoreUnavailableException(null, null, happened + claimed, e);
        };
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private static String readResource(String resource) {
        try (InputStream in = JdbcOperationStore.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new StoreConfigurationException(null, null, "missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new StoreConfigurationException(null, null, "cannot read " + resource, e);
        }
    }

    /** The column list of {@code tool_operations} and how to read it into a {@link StoredOperation}. */
    public static final class Rows {

        /** The names of the columns, in their order. */
        static final List<String> NAMES = List.of("operation_key", "tool", "status", "payload_hash", "payload_json",
                "lease_token", "lease_until", "lease_expired", "effect_started", "downstream_id", "result_json",
                "error_json", "attempts", "released_by", "created_at", "updated_at", "expires_at", "read_at");

        /** The columns under {@code alias} ("" or "t."), with the database's verdicts on the lease and its time. */
        String columns(String alias) {
            StringBuilder list = new StringBuilder();
            for (String name : NAMES) {
                list.append(list.length() == 0 ? "" : ", ").append(switch (name) {
                    case "lease_expired" -> "CASE WHEN " + alias + "lease_until IS NOT NULL AND " + alias
                            + "lease_until <= CURRENT_TIMESTAMP THEN TRUE ELSE FALSE END AS lease_expired";
                    case "read_at" -> "CURRENT_TIMESTAMP AS read_at";
                    default -> alias + name;
                });
            }
            return list.toString();
        }

        StoredOperation read(ResultSet rs) throws SQLException {
            return new StoredOperation(rs.getString("operation_key"), rs.getString("tool"),
                    OperationStatus.fromColumn(rs.getString("status")), rs.getString("payload_hash"),
                    rs.getString("payload_json"), rs.getLong("lease_token"), instant(rs, "lease_until"),
                    rs.getBoolean("lease_expired"), rs.getBoolean("effect_started"), rs.getString("downstream_id"),
                    rs.getString("result_json"), rs.getString("error_json"), rs.getInt("attempts"),
                    rs.getString("released_by"), instant(rs, "created_at"), instant(rs, "updated_at"),
                    instant(rs, "expires_at"), instant(rs, "read_at"));
        }
    }
}
