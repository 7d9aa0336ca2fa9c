package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.OperationCount;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The JDBC operation store. Each public method is one statement in auto-commit mode, except the
 * claim on H2 (an insert, then a read when the key exists). All times come from the database.
 */
public final class JdbcOperationStore implements OperationStore {

    /** The operations that {@link #purgeExpired} deletes: finished, and past their retention. */
    private static final String EXPIRED = "expires_at <= CURRENT_TIMESTAMP AND status IN ('completed', 'failed_safe')";

    /** How often a claim re-reads a row that a concurrent insert had not yet made visible. */
    private static final int VISIBILITY_RETRIES = 50;

    private final String name;
    private final DataSource dataSource;
    private final Dialect dialect;
    private final SchemaMode schemaMode;
    private final AutoCloseable closer;
    private final Rows rows = new Rows();
    private volatile boolean schemaReady;

    /**
     * @param name the store's name, for messages
     * @param closer closes the data source when the store closes (null when the caller owns it)
     */
    public JdbcOperationStore(String name, DataSource dataSource, Dialect dialect, SchemaMode schemaMode,
            AutoCloseable closer) {
        this.name = name;
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.schemaMode = schemaMode;
        this.closer = closer;
    }

    /** The dialect in use. */
    public Dialect dialect() {
        return dialect;
    }

    @Override
    public void ensureSchema() {
        if (schemaReady) {
            return;
        }
        synchronized (this) {
            if (schemaReady) {
                return;
            }
            try (Connection c = dataSource.getConnection()) {
                if (schemaMode == SchemaMode.CREATE) {
                    createSchema(c);
                }
                validateSchema(c);
            } catch (SQLException e) {
                throw unavailable("prepare the schema of", e);
            }
            schemaReady = true;
        }
    }

    private void createSchema(Connection c) throws SQLException {
        String ddl = readResource(dialect.migrationResource());
        try (Statement st = c.createStatement()) {
            for (String statement : stripComments(ddl).split(";")) {
                String sql = statement.strip();
                if (!sql.isBlank()) {
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
    }

    private static boolean isConcurrentDdl(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "42P07".equals(state) || "42710".equals(state) || "42S01".equals(state)
                || "42S11".equals(state) || "40001".equals(state) || "HYT00".equals(state);
    }

    private void validateSchema(Connection c) {
        String[] checks = {
            "SELECT " + rows.columns("") + " FROM tool_operations WHERE 1 = 0",
            "SELECT id, attempt_id, operation_key, tool, outcome, lease_token, payload_hash, downstream_id, detail,"
                    + " started_at, ended_at FROM tool_operation_attempts WHERE 1 = 0"
        };
        for (String check : checks) {
            try (Statement st = c.createStatement(); ResultSet ignored = st.executeQuery(check)) {
                // The query compiles only if every table and column exists.
            } catch (SQLException e) {
                throw new StoreConfigurationException(null, null, "store \"" + name + "\": the schema is missing or"
                        + " incomplete (" + e.getMessage() + "). Apply the migration " + dialect.migrationResource()
                        + " from idempotent-runtime.jar (Flyway or Liquibase), or set store.schema=create", e);
            }
        }
    }

    @Override
    public ClaimResult claim(ClaimRequest request) {
        ensureSchema();
        try (Connection c = dataSource.getConnection()) {
            for (int i = 0; i < VISIBILITY_RETRIES; i++) {
                ClaimResult result = dialect.claim(c, request, rows);
                if (result != null) {
                    return result;
                }
                Optional<StoredOperation> existing = find(c, request.tool(), request.key());
                if (existing.isPresent()) {
                    return new ClaimResult.Existing(existing.get());
                }
                // The conflicting insert was rolled back (or the row was deleted): claim again.
            }
            throw new StoreUnavailableException(request.tool(), request.key(), "store \"" + name + "\": the key kept"
                    + " conflicting with a row that never became visible; nothing was claimed");
        } catch (SQLException e) {
            throw unavailable("claim the key in", e);
        }
    }

    static String insertSql(Dialect dialect) {
        return "INSERT INTO tool_operations (operation_key, tool, payload_hash, payload_json, status, lease_token,"
                + " lease_until, effect_started, attempts, created_at, updated_at, expires_at)"
                + " VALUES (?, ?, ?, ?, 'in_progress', 1, " + dialect.nowPlusMillis() + ", ?, 1, CURRENT_TIMESTAMP,"
                + " CURRENT_TIMESTAMP, " + dialect.nowPlusMillis() + ")";
    }

    /** Binds {@link #insertSql}'s parameters; returns the next free parameter index. */
    static int bindInsert(PreparedStatement ps, ClaimRequest r) throws SQLException {
        ps.setString(1, r.key());
        ps.setString(2, r.tool());
        ps.setString(3, r.payloadHash());
        ps.setString(4, r.payloadJson());
        ps.setLong(5, r.lease().toMillis());
        ps.setBoolean(6, r.effectStartsWithBody());
        ps.setLong(7, r.retention().toMillis());
        return 8;
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
                "SELECT " + rows.columns("") + " FROM tool_operations WHERE tool = ? AND operation_key = ?")) {
            ps.setString(1, tool);
            ps.setString(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rows.read(rs)) : Optional.empty();
            }
        }
    }

    /** The condition that names one operation; its two parameters come first in {@link #bindId}. */
    private static final String ID = "tool = ? AND operation_key = ?";

    @Override
    public boolean takeOver(Takeover t) {
        String sql = "UPDATE tool_operations SET status = 'in_progress', lease_token = lease_token + 1,"
                + " lease_until = " + dialect.nowPlusMillis() + ", effect_started = ?, attempts = attempts + 1,"
                + " released_by = NULL, updated_at = CURRENT_TIMESTAMP, expires_at = " + dialect.nowPlusMillis()
                + " WHERE " + ID + " AND status = ? AND lease_token = ?"
                + (t.requireExpiredLease() ? " AND lease_until <= CURRENT_TIMESTAMP" : "")
                + (t.requireEffectNotStarted() ? " AND effect_started = FALSE" : "");
        return update(sql, "take over an operation in", ps -> {
            ps.setLong(1, t.lease().toMillis());
            ps.setBoolean(2, t.effectStartsWithBody());
            ps.setLong(3, t.retention().toMillis());
            bindId(ps, 4, t.tool(), t.key());
            ps.setString(6, t.expectedStatus().column());
            ps.setLong(7, t.expectedToken());
        });
    }

    @Override
    public boolean expireLease(String tool, String key, long expectedToken, boolean safe, String errorJson) {
        return update("UPDATE tool_operations SET status = ?, lease_token = lease_token + 1,"
                + " lease_until = NULL, error_json = ?, updated_at = CURRENT_TIMESTAMP"
                + " WHERE " + ID + " AND status = 'in_progress' AND lease_token = ?"
                + " AND lease_until <= CURRENT_TIMESTAMP" + (safe ? " AND effect_started = FALSE" : ""),
                "expire a lease in", ps -> {
                    ps.setString(1, (safe ? OperationStatus.FAILED_SAFE : OperationStatus.NEEDS_RECONCILIATION)
                            .column());
                    ps.setString(2, errorJson);
                    bindId(ps, 3, tool, key);
                    ps.setLong(5, expectedToken);
                });
    }

    @Override
    public boolean markEffectStarting(String tool, String key, long leaseToken, String downstreamId) {
        return update("UPDATE tool_operations SET effect_started = TRUE, downstream_id = ?,"
                + " updated_at = CURRENT_TIMESTAMP WHERE " + ID + " AND status = 'in_progress'"
                + " AND lease_token = ? AND lease_until > CURRENT_TIMESTAMP", "mark the effect boundary in", ps -> {
                    ps.setString(1, downstreamId);
                    bindId(ps, 2, tool, key);
                    ps.setLong(4, leaseToken);
                });
    }

    @Override
    public boolean heartbeat(String tool, String key, long leaseToken, Duration lease) {
        return update("UPDATE tool_operations SET lease_until = " + dialect.nowPlusMillis()
                + " WHERE " + ID + " AND status = 'in_progress' AND lease_token = ?"
                + " AND lease_until > CURRENT_TIMESTAMP", "extend a lease in", ps -> {
                    ps.setLong(1, lease.toMillis());
                    bindId(ps, 2, tool, key);
                    ps.setLong(4, leaseToken);
                });
    }

    @Override
    public boolean complete(String tool, String key, long leaseToken, String resultJson, Duration retention) {
        return update("UPDATE tool_operations SET status = 'completed', result_json = ?, error_json = NULL,"
                + " lease_until = NULL, updated_at = CURRENT_TIMESTAMP, expires_at = " + dialect.nowPlusMillis()
                + " WHERE " + ID + " AND status = 'in_progress' AND lease_token = ?", "complete an operation in",
                ps -> {
                    ps.setString(1, resultJson);
                    ps.setLong(2, retention.toMillis());
                    bindId(ps, 3, tool, key);
                    ps.setLong(5, leaseToken);
                });
    }

    @Override
    public boolean fail(String tool, String key, long leaseToken, boolean safe, String errorJson) {
        return update("UPDATE tool_operations SET status = ?, error_json = ?, lease_until = NULL,"
                + " effect_started = ?, updated_at = CURRENT_TIMESTAMP"
                + " WHERE " + ID + " AND status = 'in_progress' AND lease_token = ?", "record a failure in",
                ps -> {
                    ps.setString(1, (safe ? OperationStatus.FAILED_SAFE : OperationStatus.NEEDS_RECONCILIATION).column());
                    ps.setString(2, errorJson);
                    ps.setBoolean(3, !safe);
                    bindId(ps, 4, tool, key);
                    ps.setLong(6, leaseToken);
                });
    }

    @Override
    public boolean settleApplied(String tool, String key, long expectedToken, String resultJson, Duration retention) {
        return update("UPDATE tool_operations SET status = 'completed', result_json = ?, lease_token = lease_token + 1,"
                + " updated_at = CURRENT_TIMESTAMP, expires_at = " + dialect.nowPlusMillis()
                + " WHERE " + ID + " AND status = 'needs_reconciliation' AND lease_token = ?",
                "settle an operation in", ps -> {
                    ps.setString(1, resultJson);
                    ps.setLong(2, retention.toMillis());
                    bindId(ps, 3, tool, key);
                    ps.setLong(5, expectedToken);
                });
    }

    @Override
    public boolean settleNotApplied(String tool, String key, long expectedToken, String releasedBy) {
        return update("UPDATE tool_operations SET status = 'failed_safe', effect_started = FALSE, released_by = ?,"
                + " lease_token = lease_token + 1, updated_at = CURRENT_TIMESTAMP"
                + " WHERE " + ID + " AND status = 'needs_reconciliation' AND lease_token = ?",
                "settle an operation in", ps -> {
                    ps.setString(1, releasedBy);
                    bindId(ps, 2, tool, key);
                    ps.setLong(4, expectedToken);
                });
    }

    @Override
    public void logAttempt(AttemptRow r) {
        update("INSERT INTO tool_operation_attempts (attempt_id, operation_key, tool, outcome, lease_token,"
                + " payload_hash, downstream_id, detail, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
                + " CURRENT_TIMESTAMP, " + (r.ended() ? "CURRENT_TIMESTAMP" : "NULL") + ")", "log an attempt in", ps -> {
                    ps.setString(1, r.attemptId());
                    ps.setString(2, r.key());
                    ps.setString(3, r.tool());
                    ps.setString(4, r.outcome().name());
                    ps.setLong(5, r.leaseToken());
                    ps.setString(6, r.payloadHash());
                    ps.setString(7, r.downstreamId());
                    ps.setString(8, r.detail());
                });
    }

    @Override
    public void endAttempt(String tool, String key, String attemptId, AttemptOutcome outcome, String downstreamId,
            String detail) {
        update("UPDATE tool_operation_attempts SET outcome = ?, downstream_id = COALESCE(?, downstream_id),"
                + " detail = ?, ended_at = CURRENT_TIMESTAMP"
                + " WHERE " + ID + " AND attempt_id = ? AND outcome = 'RUNNING'", "log an attempt in", ps -> {
                    ps.setString(1, outcome.name());
                    ps.setString(2, downstreamId);
                    ps.setString(3, detail);
                    bindId(ps, 4, tool, key);
                    ps.setString(6, attemptId);
                });
    }

    @Override
    public List<AttemptRecord> attempts(String tool, String key) {
        ensureSchema();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT attempt_id, outcome, lease_token, downstream_id,"
                        + " detail, started_at, ended_at FROM tool_operation_attempts WHERE " + ID
                        + " ORDER BY id")) {
            bindId(ps, 1, tool, key);
            List<AttemptRecord> list = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    list.add(new AttemptRecord(rs.getString(1), AttemptOutcome.valueOf(rs.getString(2)), rs.getLong(3),
                            rs.getString(4), rs.getString(5), instant(rs, 6), instant(rs, 7)));
                }
            }
            return list;
        } catch (SQLException e) {
            throw unavailable("read the attempt log from", e);
        }
    }

    private static void bindId(PreparedStatement ps, int first, String tool, String key) throws SQLException {
        ps.setString(first, tool);
        ps.setString(first + 1, key);
    }

    @Override
    public List<StoredOperation> awaitingReconciliation(String tool, Duration olderThan, int limit) {
        ensureSchema();
        String sql = "SELECT " + rows.columns("") + " FROM tool_operations WHERE status = 'needs_reconciliation'"
                + (tool == null ? "" : " AND tool = ?") + " AND updated_at <= " + dialect.nowPlusMillis()
                + " ORDER BY updated_at, tool, operation_key";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            if (tool != null) {
                ps.setString(i++, tool);
            }
            ps.setLong(i, -olderThan.toMillis());
            ps.setMaxRows(limit);
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

    @Override
    public int purgeExpired() {
        String expired = EXPIRED;
        ensureSchema();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.executeUpdate("DELETE FROM tool_operation_attempts a WHERE EXISTS (SELECT 1 FROM tool_operations o"
                    + " WHERE o.tool = a.tool AND o.operation_key = a.operation_key AND " + expired + ")");
            return st.executeUpdate("DELETE FROM tool_operations WHERE " + expired);
        } catch (SQLException e) {
            throw unavailable("purge expired operations from", e);
        }
    }

    @Override
    public void close() {
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

    /** Runs one conditional statement: true if it changed the row, false if it lost the race. */
    private boolean update(String sql, String what, Binder binder) {
        ensureSchema();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            int changed = ps.executeUpdate();
            if (changed > 1) {
                throw new IllegalStateException("a statement keyed by the primary key changed " + changed + " rows: "
                        + sql);
            }
            return changed == 1;
        } catch (SQLException e) {
            throw unavailable(what, e);
        }
    }

    private StoreUnavailableException unavailable(String what, SQLException e) {
        return new StoreUnavailableException(null, null, "could not " + what + " store \"" + name + "\" ("
                + dialect.name() + "): " + e.getMessage(), e);
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

    private static String stripComments(String sql) {
        StringBuilder out = new StringBuilder();
        for (String line : sql.split("\n")) {
            String trimmed = line.strip();
            if (!trimmed.startsWith("--")) {
                out.append(line).append('\n');
            }
        }
        return out.toString().strip();
    }

    /** The column list of {@code tool_operations} and how to read it into a {@link StoredOperation}. */
    public static final class Rows {

        String columns(String alias) {
            String a = alias;
            return a + "operation_key, " + a + "tool, " + a + "status, " + a + "payload_hash, " + a + "payload_json, "
                    + a + "lease_token, " + a + "lease_until, CASE WHEN " + a + "lease_until IS NOT NULL AND " + a
                    + "lease_until <= CURRENT_TIMESTAMP THEN TRUE ELSE FALSE END AS lease_expired, " + a
                    + "effect_started, " + a + "downstream_id, " + a + "result_json, " + a + "error_json, " + a
                    + "attempts, " + a + "released_by, " + a + "created_at, " + a + "updated_at, " + a + "expires_at";
        }

        StoredOperation read(ResultSet rs) throws SQLException {
            return new StoredOperation(rs.getString("operation_key"), rs.getString("tool"),
                    OperationStatus.fromColumn(rs.getString("status")), rs.getString("payload_hash"),
                    rs.getString("payload_json"), rs.getLong("lease_token"), instant(rs, "lease_until"),
                    rs.getBoolean("lease_expired"), rs.getBoolean("effect_started"), rs.getString("downstream_id"),
                    rs.getString("result_json"), rs.getString("error_json"), rs.getInt("attempts"),
                    rs.getString("released_by"), instant(rs, "created_at"), instant(rs, "updated_at"),
                    instant(rs, "expires_at"));
        }
    }
}
