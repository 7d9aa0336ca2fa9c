package io.idempotent.runtime.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * Who holds an embedded H2 store's file right now, as the operating system and H2's lock file
 * tell it: the process that holds the operating-system lock on the {@code .mv.db} (on Linux,
 * from {@code /proc/locks}; a process that died holds none, one that is stopped or stalled
 * keeps it), whether that process is stopped (SIGSTOP, a debugger's stop), and the address of
 * the H2 server that the {@code .lock.db} names (the JVM that shares the file with
 * {@code AUTO_SERVER}). What cannot be told is null. Only names and numbers are read, never the
 * database.
 */
public final class H2FileOwner {

    private static final Path PROC_LOCKS = Path.of("/proc/locks");

    private final Path mvDb;
    private final Path lockDb;

    private H2FileOwner(Path database) {
        this.mvDb = Path.of(database + ".mv.db");
        this.lockDb = Path.of(database + ".lock.db");
    }

    /** The owner of {@code database} (a path without {@code .mv.db}). */
    public static H2FileOwner of(Path database) {
        return new H2FileOwner(database);
    }

    /** The {@code .mv.db} file. */
    Path file() {
        return mvDb;
    }

    /**
     * The process id that holds the operating-system lock on the {@code .mv.db}, or null when
     * none does or it cannot be told (no {@code /proc/locks}).
     */
    public Long holderPid() {
        if (!Files.isReadable(PROC_LOCKS)) {
            return null;
        }
        try {
            Object inode = Files.getAttribute(mvDb, "unix:ino");
            List<String> locks = Files.readAllLines(PROC_LOCKS);
            for (String line : locks) {
                // "1: POSIX  ADVISORY  WRITE 12345 fe:00:2147092 0 EOF"; waiters have "->" after the number
                String[] fields = line.trim().split("\\s+");
                if (fields.length < 6 || fields[1].equals("->") || !fields[1].equals("POSIX")) {
                    continue;
                }
                String device = fields[5];
                if (device.substring(device.lastIndexOf(':') + 1).equals(String.valueOf(inode))) {
                    long pid = Long.parseLong(fields[4]);
                    return pid > 0 ? pid : null;
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether {@code pid} is this JVM's own process. */
    static boolean isThisProcess(long pid) {
        return pid == ProcessHandle.current().pid();
    }

    /**
     * Whether process {@code pid} is stopped (SIGSTOP, a debugger): its state in
     * {@code /proc/PID/stat} is {@code T} or {@code t}. False when it runs or cannot be told.
     */
    static boolean isStopped(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // "pid (comm) S ...": the state follows the last ')', since comm may hold spaces and parentheses
            String rest = stat.substring(stat.lastIndexOf(')') + 1).trim();
            return rest.startsWith("T") || rest.startsWith("t");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The address of the H2 server ({@code host:port}) that the {@code .lock.db} names, or null
     * when there is no lock file or it names none (a holder that does not share the file).
     */
    public String serverAddress() {
        Properties lock = new Properties();
        try (InputStream in = Files.newInputStream(lockDb)) {
            lock.load(in);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
        return lock.getProperty("server");
    }

    /** Whether the {@code .lock.db} exists (a JVM that shares the file with {@code AUTO_SERVER} keeps it). */
    boolean lockFileExists() {
        return Files.exists(lockDb);
    }

    /**
     * How a message names the holder: "process 123, whose H2 server is 127.0.0.1:9092 as
     * operations.lock.db says", or what of it can be told.
     */
    String describe(Long pid, String server) {
        String who = pid == null ? "" : "process " + pid;
        if (server != null) {
            who += (who.isEmpty() ? "" : ", ") + "whose H2 server is " + server + " as " + lockDb.getFileName()
                    + " says";
        }
        return who.isEmpty() ? "" : " (" + who + ")";
    }
}
