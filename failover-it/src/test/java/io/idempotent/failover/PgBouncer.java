package io.idempotent.failover;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A PgBouncer of a test (the build finds or installs Debian's package: src/build/pgbouncer.sh)
 * in front of a primary, on a loopback port, in a given {@code pool_mode}, with only
 * {@link #SERVER_CONNECTIONS} server connections for every client: in transaction mode the
 * clients then share server sessions from one transaction to the next, as in production. Run as
 * the servers' OS user when the build runs as root (PgBouncer refuses root).
 */
final class PgBouncer implements AutoCloseable {

    /** Server connections per database and user: fewer than the clients. */
    static final int SERVER_CONNECTIONS = 3;

    private final Process process;
    private final int port;
    private final Path log;

    private PgBouncer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    static PgBouncer start(PostgresInstallation installation, Path workRoot, int serverPort, String poolMode) {
        Path bin;
        try {
            String file = System.getProperty("build.pgbouncer.binFile");
            if (file == null) {
                throw new IllegalStateException("system property build.pgbouncer.binFile is not set: run the pooler"
                        + " tests through Maven, which finds PgBouncer first (src/build/pgbouncer.sh)");
            }
            bin = Path.of(Files.readString(Path.of(file), StandardCharsets.UTF_8).strip());
            Files.createDirectories(workRoot);
            Path dir = Files.createTempDirectory(workRoot, "pgbouncer-" + poolMode + "-");
            int port = freePort();
            Path log = dir.resolve("pgbouncer.log");
            Files.writeString(dir.resolve("userlist.txt"), "\"" + ReplicatedPostgres.USER + "\" \""
                    + ReplicatedPostgres.PASSWORD + "\"\n", StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("pgbouncer.ini"), String.join("\n",
                    "[databases]",
                    ReplicatedPostgres.DATABASE + " = host=127.0.0.1 port=" + serverPort + " dbname="
                            + ReplicatedPostgres.DATABASE,
                    "[pgbouncer]",
                    "listen_addr = 127.0.0.1",
                    "listen_port = " + port,
                    "unix_socket_dir =",
                    "auth_type = plain",
                    "auth_file = " + dir.resolve("userlist.txt"),
                    "pool_mode = " + poolMode,
                    "default_pool_size = " + SERVER_CONNECTIONS,
                    "min_pool_size = 0",
                    "max_client_conn = 200",
                    // The JDBC driver sends these at start; PgBouncer passes on only what it knows.
                    "ignore_startup_parameters = extra_float_digits,options",
                    "logfile = " + log,
                    "pidfile = " + dir.resolve("pgbouncer.pid"),
                    "") + "\n", StandardCharsets.UTF_8);
            installation.own(dir);
            List<String> command = new ArrayList<>(installation.asServerUser());
            command.add(bin.toString());
            command.add(dir.resolve("pgbouncer.ini").toString());
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile()))
                    .directory(dir.toFile()).start();
            PgBouncer pooler = new PgBouncer(process, port, log);
            Deadline.await(Duration.ofSeconds(30), "PgBouncer (" + poolMode + ") answers on port " + port,
                    pooler::answers, () -> "see " + log + " and " + dir.resolve("stdout.log"));
            return pooler;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start PgBouncer", e);
        }
    }

    /** The URL of the database through the pooler, with {@code parameters} ("" or "?a=b"). */
    String url(String parameters) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + ReplicatedPostgres.DATABASE + parameters;
    }

    /** Where PgBouncer logs (what it refused, the server errors it passed on). */
    Path log() {
        return log;
    }

    private boolean answers() {
        if (!process.isAlive()) {
            throw new IllegalStateException("PgBouncer exited with " + process.exitValue() + "; see " + log);
        }
        try (Connection c = DriverManager.getConnection(url("?connectTimeout=2&socketTimeout=5"),
                ReplicatedPostgres.USER, ReplicatedPostgres.PASSWORD)) {
            return c.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public void close() {
        // runuser's child first: PgBouncer itself.
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
