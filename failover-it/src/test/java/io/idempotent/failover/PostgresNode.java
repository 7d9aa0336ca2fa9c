package io.idempotent.failover;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One PostgreSQL server of a test: its data directory under the build's {@code target/}, its
 * loopback port, and the ways a test ends it: SIGKILL to every server process (a crash), SIGSTOP
 * (a host that stops answering without closing its sockets), or promotion of a standby.
 */
final class PostgresNode {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    private final PostgresInstallation installation;
    private final String name;
    private final Path dataDir;
    /** The output of the commands run for this server (written by the test's JVM). */
    private final Path log;
    /** The server's own log (written by the server, as its OS user). */
    private final Path serverLog;
    private final int port;
    /** The postmaster of the running server, or 0; read from postmaster.pid after each start. */
    private volatile long postmaster;

    PostgresNode(PostgresInstallation installation, Path workDir, String name, int port) {
        this.installation = installation;
        this.name = name;
        this.dataDir = workDir.resolve(name);
        this.log = workDir.resolve(name + "-commands.log");
        this.serverLog = workDir.resolve(name + ".log");
        this.port = port;
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    Path dataDir() {
        return dataDir;
    }

    /** Where to look when the server misbehaved. */
    String logs() {
        return serverLog + " and " + log;
    }

    /** {@code initdb}: a cluster whose superuser {@code postgres} is trusted on loopback only. */
    void initdb() {
        installation.run(log, COMMAND_TIMEOUT, "initdb", "-D", dataDir.toString(), "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--locale=C", "--no-sync");
    }

    /** {@code pg_basebackup -R} of {@code primary}: a standby that streams from it as {@code user}. */
    void baseBackupOf(PostgresNode primary, String user) {
        installation.run(log, COMMAND_TIMEOUT, "pg_basebackup", "-h", "127.0.0.1", "-p",
                Integer.toString(primary.port), "-U", user, "-D", dataDir.toString(), "-R", "-X", "stream", "-c",
                "fast", "--no-sync");
    }

    /** Appends lines to the data directory's {@code postgresql.conf} (later lines win). */
    void configure(String... lines) {
        append(dataDir.resolve("postgresql.conf"), lines);
    }

    /** Replaces {@code pg_hba.conf}. */
    void hba(String... lines) {
        try {
            Files.writeString(dataDir.resolve("pg_hba.conf"), String.join("\n", lines) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void append(Path file, String... lines) {
        try {
            Files.writeString(file, "\n" + String.join("\n", lines) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void start() {
        installation.run(log, COMMAND_TIMEOUT, "pg_ctl", "start", "-w", "-t", "60", "-D", dataDir.toString(), "-l",
                serverLog.toString());
        try {
            postmaster = Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("the server " + name + " started but left no postmaster.pid", e);
        }
    }

    /** {@code pg_ctl promote -w}: returns once the standby accepts writes. */
    void promote() {
        installation.run(log, COMMAND_TIMEOUT, "pg_ctl", "promote", "-w", "-t", "60", "-D", dataDir.toString());
    }

    /** A crash: every server process is stopped first (none writes or sends another byte), then killed. */
    void kill() {
        if (postmaster == 0) {
            return;
        }
        List<Long> pids = serverProcesses();
        signal("STOP", pids);
        signal("KILL", pids);
        postmaster = 0;
    }

    /** A silent host: every server process stopped (SIGSTOP); its sockets stay open. */
    void freeze() {
        signal("STOP", serverProcesses());
    }

    /** SIGSTOP to one process of the server (a WAL sender, to make a standby fall behind). */
    void freezeProcess(long pid) {
        signal("STOP", List.of(pid));
    }

    /** The end of the test: SIGKILL to whatever of this server still runs (frozen or not). */
    void destroy() {
        kill();
    }

    boolean running() {
        long pid = postmaster;
        return pid != 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** The postmaster and every process it started (backends, WAL sender or receiver, checkpointer ...). */
    private List<Long> serverProcesses() {
        List<Long> pids = new ArrayList<>();
        Optional<ProcessHandle> handle = ProcessHandle.of(postmaster);
        handle.ifPresent(h -> {
            pids.add(h.pid());
            h.descendants().forEach(d -> pids.add(d.pid()));
        });
        return pids;
    }

    private static void signal(String signal, List<Long> pids) {
        if (pids.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("kill", "-s", signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            // A process that ended between listing and signalling makes kill exit 1: nothing to do.
            process.getInputStream().readAllBytes();
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A connection as the trusted superuser, to set the server up and to read what it holds. */
    Connection superuser(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database
                + "?socketTimeout=60&connectTimeout=10", "postgres", "");
    }

    @Override
    public String toString() {
        return name + " on 127.0.0.1:" + port;
    }
}
