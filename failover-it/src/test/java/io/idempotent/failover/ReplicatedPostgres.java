package io.idempotent.failover;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A PostgreSQL primary and a streaming standby on loopback ports, started by a test: the primary
 * with {@code wal_level=replica} and a replication user in {@code pg_hba.conf}, the standby made by
 * {@code pg_basebackup -R}, synchronous or asynchronous. The test kills or freezes the primary and
 * promotes the standby; {@link #close()} ends every server process, and a JVM shutdown hook does
 * it for clusters a failed run left behind.
 */
final class ReplicatedPostgres implements AutoCloseable {

    /** How commits on the primary wait for the standby. */
    enum Replication {
        /** {@code synchronous_standby_names} names the standby: a commit returns once the standby flushed it. */
        SYNCHRONOUS,
        /** No synchronous standby: a commit returns before the standby has it. */
        ASYNCHRONOUS
    }

    static final String DATABASE = "db";
    static final String USER = "app";
    static final String PASSWORD = "app-secret";
    private static final String REPLICATION_USER = "replicator";
    private static final String STANDBY_NAME = "standby1";

    private static final Set<ReplicatedPostgres> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(ReplicatedPostgres::close),
                "replicated-postgres-cleanup"));
    }

    private final Replication replication;
    private final PostgresNode primary;
    private final PostgresNode standby;

    private ReplicatedPostgres(Replication replication, PostgresNode primary, PostgresNode standby) {
        this.replication = replication;
        this.primary = primary;
        this.standby = standby;
    }

    /** Starts a primary and a standby in a new directory under {@code workRoot}; returns once the standby streams. */
    static ReplicatedPostgres start(PostgresInstallation installation, Path workRoot, String name,
            Replication replication) {
        Path work;
        try {
            Files.createDirectories(workRoot);
            work = Files.createTempDirectory(workRoot, name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        installation.own(work);
        PostgresNode primary = new PostgresNode(installation, work, "primary", freePort());
        PostgresNode standby = new PostgresNode(installation, work, "standby", freePort());
        ReplicatedPostgres cluster = new ReplicatedPostgres(replication, primary, standby);
        RUNNING.add(cluster);
        try {
            cluster.startPrimary();
            cluster.startStandby();
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startPrimary() {
        primary.initdb();
        primary.configure(
                "listen_addresses = '127.0.0.1'",
                "port = " + primary.port(),
                "unix_socket_directories = ''",
                "wal_level = replica",
                "max_wal_senders = 4",
                "wal_keep_size = '256MB'",
                "hot_standby = on",
                // The servers are killed, never the machine: the OS keeps what they wrote.
                "fsync = off",
                "full_page_writes = off",
                "shared_buffers = '32MB'",
                "max_connections = 60",
                "synchronous_commit = on");
        primary.hba(
                "host replication " + REPLICATION_USER + " 127.0.0.1/32 trust",
                "host all postgres 127.0.0.1/32 trust",
                "host " + DATABASE + " " + USER + " 127.0.0.1/32 scram-sha-256");
        primary.start();
        try (Connection c = primary.superuser("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + REPLICATION_USER + " REPLICATION LOGIN");
            s.execute("CREATE ROLE " + USER + " LOGIN PASSWORD '" + PASSWORD + "'");
            s.execute("CREATE DATABASE " + DATABASE + " OWNER " + USER);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot set up " + primary + "; see " + primary.logs(), e);
        }
    }

    private void startStandby() {
        standby.baseBackupOf(primary, REPLICATION_USER);
        // The standby's name is its cluster_name: the WAL receiver reports it as its application_name.
        standby.configure("port = " + standby.port(), "cluster_name = '" + STANDBY_NAME + "'",
                "synchronous_standby_names = ''");
        standby.start();
        if (replication == Replication.SYNCHRONOUS) {
            // Named only now: before the standby streams, every commit on the primary would wait for it.
            try (Connection c = primary.superuser("postgres"); Statement s = c.createStatement()) {
                s.execute("ALTER SYSTEM SET synchronous_standby_names = '" + STANDBY_NAME + "'");
                s.execute("SELECT pg_reload_conf()");
            } catch (SQLException e) {
                throw new IllegalStateException("cannot make " + standby + " synchronous; see " + primary.logs(), e);
            }
        }
        String state = replication == Replication.SYNCHRONOUS ? "sync" : "async";
        Deadline.await(Duration.ofSeconds(30), standby + " streams from " + primary + " as a " + state + " standby",
                () -> replicationState().equals("streaming " + state), this::replicationState);
    }

    /** The standby's entry in the primary's pg_stat_replication: "state sync_state", or "none". */
    private String replicationState() {
        try (Connection c = primary.superuser("postgres"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT state, sync_state FROM pg_stat_replication WHERE application_name = '"
                        + STANDBY_NAME + "'")) {
            return rs.next() ? rs.getString(1) + " " + rs.getString(2) : "none";
        } catch (SQLException e) {
            return "primary unreachable: " + e.getMessage();
        }
    }

    /** The multi-host URL an application gives the runtime: whichever of the two is the primary. */
    String multiHostUrl() {
        return "jdbc:postgresql://127.0.0.1:" + primary.port() + ",127.0.0.1:" + standby.port() + "/" + DATABASE
                + "?targetServerType=primary";
    }

    /** The primary's loopback port (for a pooler in front of it). */
    int primaryPort() {
        return primary.port();
    }

    /** The standby alone (a misconfiguration the runtime must refuse). */
    String standbyUrl() {
        return "jdbc:postgresql://127.0.0.1:" + standby.port() + "/" + DATABASE;
    }

    /** The primary as its superuser (before any failover). */
    Connection primarySuperuser() throws SQLException {
        return primary.superuser(DATABASE);
    }

    /** The standby as its superuser: after the promotion, what the new primary holds. */
    Connection standbySuperuser() throws SQLException {
        return standby.superuser(DATABASE);
    }

    /**
     * Stops (SIGSTOP) the primary's WAL sender: the primary goes on committing and the standby
     * receives nothing more, as an asynchronous standby falls behind under load. Only with
     * asynchronous replication (a synchronous primary would stop committing).
     */
    void pauseReplication() {
        if (replication != Replication.ASYNCHRONOUS) {
            throw new IllegalStateException("a paused synchronous standby stops every commit");
        }
        try (Connection c = primary.superuser("postgres"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT pid FROM pg_stat_replication WHERE application_name = '"
                        + STANDBY_NAME + "'")) {
            if (!rs.next()) {
                throw new IllegalStateException("no WAL sender for " + STANDBY_NAME + " on " + primary);
            }
            primary.freezeProcess(rs.getLong(1));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot find the WAL sender on " + primary, e);
        }
    }

    /** The primary crashes: every server process SIGSTOPped, then SIGKILLed. */
    void killPrimary() {
        primary.kill();
    }

    /** The primary stops answering without closing a socket (SIGSTOP to every server process). */
    void freezePrimary() {
        primary.freeze();
    }

    /** {@code pg_ctl promote}: returns once the standby is a primary. */
    void promoteStandby() {
        standby.promote();
    }

    /** Whether any server process of the two is still alive (for the test of the cleanup). */
    boolean anyServerRunning() {
        return primary.running() || standby.running();
    }

    @Override
    public void close() {
        try {
            primary.destroy();
        } finally {
            standby.destroy();
            RUNNING.remove(this);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return replication.name().toLowerCase(java.util.Locale.ROOT) + " primary " + primary + ", standby " + standby;
    }
}
