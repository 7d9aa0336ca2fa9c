package io.idempotent.runtime.testing;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.internal.StoreRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** One test's database: its JDBC coordinates and direct SQL for checking rows. */
public final class TestDatabase {

    private final Database kind;
    private final String url;
    private final String user;
    private final String password;
    private final List<IdempotentRuntime> runtimes = new ArrayList<>();
    private final List<Runnable> cleanUps = new ArrayList<>();

    TestDatabase(Database kind, String url, String user, String password) {
        this.kind = kind;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** Which database this is. */
    public Database kind() {
        return kind;
    }

    /** The JDBC URL. */
    public String url() {
        return url;
    }

    /** The user. */
    public String user() {
        return user;
    }

    /** The password. */
    public String password() {
        return password;
    }

    /** A runtime builder with this database as the default store. */
    public IdempotentRuntime.Builder runtimeBuilder() {
        return IdempotentRuntime.builder().store("default", url, user, password);
    }

    /** A runtime on this database, closed after the test. */
    public IdempotentRuntime runtime() {
        return track(runtimeBuilder().build());
    }

    /** Closes {@code runtime} after the test. */
    public IdempotentRuntime track(IdempotentRuntime runtime) {
        runtimes.add(runtime);
        return runtime;
    }

    /** Runs {@code action} after the test, before its runtimes are closed. */
    public void onCleanUp(Runnable action) {
        cleanUps.add(action);
    }

    /** A new connection (the caller closes it). */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** The single long value of a query. */
    public long queryLong(String sql, Object... args) {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The single string value of a query, or null when there is no row. */
    public String queryString(String sql, Object... args) {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** Runs an update; returns the row count. */
    public int update(String sql, Object... args) {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The status column of {@code key}, or null. */
    public String status(String key) {
        return queryString("SELECT status FROM tool_operations WHERE operation_key = ?", key);
    }

    /** How many operation rows exist. */
    public long operationRows() {
        return tableExists("tool_operations") ? queryLong("SELECT count(*) FROM tool_operations") : 0;
    }

    /**
     * Writes the answers the tracked runtimes' stores have queued for the attempt log (a replay's
     * or a conflict's answer is written in batches after the call returns), so that SQL on the
     * table sees every call made so far.
     */
    public void flushAttemptLogs() {
        for (IdempotentRuntime runtime : runtimes) {
            StoreRegistry stores = RuntimeAccess.engine(runtime).stores();
            for (String name : stores.names()) {
                stores.get(name, "test").flushAttemptLog();
            }
        }
    }

    /** The outcomes in the attempt log of {@code key}, oldest first (its answers flushed first). */
    public List<String> attemptOutcomes(String key) {
        flushAttemptLogs();
        List<String> outcomes = new ArrayList<>();
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT outcome FROM tool_operation_attempts WHERE operation_key = ? ORDER BY started_at, latest, id")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    outcomes.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return outcomes;
    }

    /** SQL for the database's current time plus {@code millis} (negative for the past). */
    public String nowPlusMillis(long millis) {
        return kind == Database.H2 ? "DATEADD(MILLISECOND, " + millis + ", CURRENT_TIMESTAMP)"
                : "(CURRENT_TIMESTAMP + (" + millis + ") * INTERVAL '1 millisecond')";
    }

    /** Polls until the database's clock is {@code millis} past the first claim of {@code key}. */
    public void awaitClaimOlderThan(String key, long millis) {
        await(() -> queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ? AND created_at < "
                + nowPlusMillis(-millis), key) == 1, Duration.ofSeconds(30), key + " to be " + millis + " ms old");
    }

    /** Whether the lease of {@code key} has expired by the database's clock. */
    public boolean leaseExpired(String key) {
        return queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ?"
                + " AND lease_until <= CURRENT_TIMESTAMP", key) == 1;
    }

    /** Polls (with a deadline) until the lease of {@code key} has expired by the database's clock. */
    public void awaitLeaseExpired(String key) {
        await(() -> leaseExpired(key), Duration.ofSeconds(20), "the lease of " + key + " to expire");
    }

    /** Polls {@code condition} every 20 ms until it holds or the deadline passes. */
    public static void await(BooleanSupplier condition, Duration deadline, String what) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out after " + deadline + " waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** Whether the table exists. */
    public boolean tableExists(String table) {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.executeQuery("SELECT 1 FROM " + table + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    void cleanUp() throws SQLException {
        for (Runnable action : cleanUps) {
            action.run();
        }
        for (IdempotentRuntime runtime : runtimes) {
            runtime.close();
        }
        try (Connection c = connect(); Statement st = c.createStatement()) {
            if (kind == Database.H2) {
                st.execute("SHUTDOWN");
            } else {
                dropLibraryTables(st);
            }
        }
    }

    /**
     * Drops every table and view of the library's schema (every migration's), so that the next
     * test's store creates all of them again: a migration is marked applied by a table it makes.
     */
    public static void dropLibraryTables(Statement st) throws SQLException {
        st.execute("DROP VIEW IF EXISTS tool_operation_attempts");
        st.execute("DROP TABLE IF EXISTS tool_operation_attempt_log");
        st.execute("DROP TABLE IF EXISTS tool_operations_open");
        st.execute("DROP TABLE IF EXISTS tool_operation_approvals");
        st.execute("DROP TABLE IF EXISTS tool_operation_outbox");
        st.execute("DROP TABLE IF EXISTS tool_operations");
    }
}
