package io.idempotent.runtime.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL of one test's own that the test can freeze: SIGSTOP on the postmaster and every
 * process it started, so the server stops answering without closing its sockets (a network
 * partition, a frozen host: not a crash), and SIGCONT to thaw it. The shared test server must
 * keep answering the other tests, so a frozen one is never it. {@link #close()} thaws before it
 * stops the server, since a frozen server can be neither stopped nor answer a client's last writes:
 * a test freezes it inside try-with-resources (or thaws in {@code finally}).
 */
public final class FrozenPostgres implements AutoCloseable {

    private final Path data;
    private final EmbeddedPostgres postgres;
    private final List<Long> frozen = new ArrayList<>();

    private FrozenPostgres(Path data, EmbeddedPostgres postgres) {
        this.data = data;
        this.postgres = postgres;
    }

    /** Starts a server with its data directory in {@code data} (a test's temporary directory). */
    public static FrozenPostgres start(Path data) throws IOException {
        return new FrozenPostgres(data, EmbeddedPostgres.builder().setDataDirectory(data)
                .setCleanDataDirectory(false).start());
    }

    /** The URL of its database {@code postgres}; user and password are both {@code postgres}. */
    public String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    /** Stops every process of the server (SIGSTOP): it no longer answers, and its sockets stay open. */
    public synchronized void freeze() throws IOException, InterruptedException {
        if (!frozen.isEmpty()) {
            return;
        }
        List<Long> processes = serverProcesses();
        signal("STOP", processes);
        frozen.addAll(processes);
    }

    /** Lets the frozen processes run again (SIGCONT); nothing when the server is not frozen. */
    public synchronized void thaw() throws IOException, InterruptedException {
        if (frozen.isEmpty()) {
            return;
        }
        signal("CONT", frozen);
        frozen.clear();
    }

    /** Thaws the server if it is frozen, then stops it. */
    @Override
    public void close() throws IOException, InterruptedException {
        try {
            thaw();
        } finally {
            postgres.close();
        }
    }

    /** The postmaster (first line of the data directory's postmaster.pid) and every process it started. */
    private List<Long> serverProcesses() throws IOException {
        long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        List<Long> pids = new ArrayList<>();
        pids.add(postmaster);
        ProcessHandle.of(postmaster).orElseThrow().descendants().forEach(p -> pids.add(p.pid()));
        return pids;
    }

    private static void signal(String signal, List<Long> pids) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        Process kill = new ProcessBuilder(command).inheritIO().start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed");
        }
    }
}
