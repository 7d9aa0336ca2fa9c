package io.idempotent.failover;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The PostgreSQL server binaries the build found ({@code src/build/postgresql-server.sh} writes
 * their directory before the tests run), and how their commands are run: as the OS user
 * {@code postgres} when the build runs as root, because {@code initdb} and the server refuse root.
 */
final class PostgresInstallation {

    private static final String OS_USER = "postgres";

    private final Path bin;
    private final boolean root;

    private PostgresInstallation(Path bin, boolean root) {
        this.bin = bin;
        this.root = root;
    }

    /** The installation named by the build (system property {@code build.postgres.binFile}). */
    static PostgresInstallation fromBuild() {
        String file = System.getProperty("build.postgres.binFile");
        if (file == null) {
            throw new IllegalStateException("system property build.postgres.binFile is not set: run the failover tests"
                    + " through Maven (mvn -pl failover-it -am verify), which finds the PostgreSQL binaries first");
        }
        try {
            Path bin = Path.of(Files.readString(Path.of(file), StandardCharsets.UTF_8).strip());
            return new PostgresInstallation(bin, "root".equals(System.getProperty("user.name")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (written by src/build/postgresql-server.sh)", e);
        }
    }

    /**
     * Where the clusters' directories go: {@code buildDirectory} (the build's {@code target/}),
     * unless the servers run as the OS user {@code postgres}, who may not be able to reach a
     * clone under root's own home (mode 700): then a new directory of the server user's under the
     * system's temporary directory.
     */
    Path workRoot(String buildDirectory) {
        if (!root) {
            return Path.of(buildDirectory);
        }
        try {
            Path dir = Files.createTempDirectory("idempotent-failover-");
            own(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a directory for the clusters under "
                    + System.getProperty("java.io.tmpdir"), e);
        }
    }

    /** Makes {@code dir} (and what it holds) the server user's, so that it can hold data directories. */
    void own(Path dir) {
        if (!root) {
            return;
        }
        UserPrincipalLookupService users = FileSystems.getDefault().getUserPrincipalLookupService();
        try (Stream<Path> paths = Files.walk(dir)) {
            var user = users.lookupPrincipalByName(OS_USER);
            GroupPrincipal group = users.lookupPrincipalByGroupName(OS_USER);
            for (Path path : (Iterable<Path>) paths::iterator) {
                PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
                view.setOwner(user);
                view.setGroup(group);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot hand " + dir + " to the OS user " + OS_USER, e);
        }
    }

    /** What a command line starts with to run as the servers' OS user (nothing unless the build runs as root). */
    List<String> asServerUser() {
        return root ? List.of("runuser", "-u", OS_USER, "--") : List.of();
    }

    /**
     * Runs {@code tool} of the installation with {@code args} and waits for it; its output goes
     * to {@code log}. A non-zero exit fails with the log's end, which says why.
     */
    void run(Path log, Duration timeout, String tool, String... args) {
        List<String> command = new ArrayList<>();
        command.addAll(asServerUser());
        command.add(bin.resolve(tool).toString());
        command.addAll(List.of(args));
        // The server user may not enter the build's working directory: start where the log is.
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .directory(log.toAbsolutePath().getParent().toFile());
        // Server processes inherit this environment: no locale the data directory did not get.
        builder.environment().put("LC_ALL", "C");
        try {
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(tool + " did not finish within " + timeout + "; see " + log);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(tool + " " + String.join(" ", args) + " exited with "
                        + process.exitValue() + "; the end of " + log + ":\n" + tail(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + tool + " ran", e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
