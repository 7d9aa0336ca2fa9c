package io.idempotent.runtime.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A forked JVM running {@link SharedStoreWorker} on an embedded H2 store shared with others: the
 * test reads its answers, and can freeze it (SIGSTOP), thaw it (SIGCONT) or kill it (SIGKILL).
 */
public final class SharedStoreJvm implements AutoCloseable {

    /** One answer a call got in the worker. */
    public record Answer(String id, long millis, String kind, boolean retryable, String flags, String jvm) {

        /** Whether the answer is a stored (or replayed) result. */
        public boolean isResult() {
            return kind.startsWith("result:");
        }
    }

    private final String name;
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<Answer> answers = new CopyOnWriteArrayList<>();
    private volatile boolean frozen;

    private SharedStoreJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        Thread reader = new Thread(this::read, "shared-store-jvm-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a worker on {@code database} (a path without {@code .mv.db}) with the store's
     * {@code settings} (keys without {@code idempotent.}), returning once its first call answered.
     *
     * @param classPath the class path of the JVM (another H2 version's, say), or null for this one's
     */
    public static SharedStoreJvm start(String name, Path database, Map<String, String> settings, Path effects,
            int ids, int threads, Duration lease, long pauseMillis, boolean waitForGo, String classPath)
            throws IOException, InterruptedException {
        return start(name, database, settings, effects, ids, threads, lease, pauseMillis, waitForGo, classPath,
                "ready ");
    }

    /** As above, returning once the JVM printed a line that starts with {@code awaited} ("started ", "ready "). */
    public static SharedStoreJvm start(String name, Path database, Map<String, String> settings, Path effects,
            int ids, int threads, Duration lease, long pauseMillis, boolean waitForGo, String classPath,
            String awaited) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx96m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Didempotent.store.url=jdbc:h2:file:" + database + ";AUTO_SERVER=TRUE");
        settings.forEach((k, v) -> command.add("-Didempotent." + k + "=" + v));
        command.add("-cp");
        command.add(classPath != null ? classPath : System.getProperty("java.class.path"));
        command.add(SharedStoreWorker.class.getName());
        command.add(effects.toString());
        command.add(Integer.toString(ids));
        command.add(Long.toString(name.hashCode()));
        command.add(Integer.toString(threads));
        command.add(lease.toString());
        command.add(Long.toString(pauseMillis));
        command.add(Boolean.toString(waitForGo));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        SharedStoreJvm jvm = new SharedStoreJvm(name, process);
        jvm.await(l -> l.startsWith(awaited), Duration.ofSeconds(60));
        return jvm;
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(line);
                if (line.startsWith("answer ")) {
                    String[] p = line.split(" ");
                    answers.add(new Answer(p[1], Long.parseLong(p[2]), p[3], Boolean.parseBoolean(p[4]), p[5], name));
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** Waits until a line matches, failing with what the JVM printed when it does not within {@code timeout}. */
    public void await(Predicate<String> line, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (lines.stream().noneMatch(line)) {
            if (System.nanoTime() - deadline > 0 || (!process.isAlive() && lines.stream().noneMatch(line))) {
                Thread.sleep(100); // the reader may still be reading the last lines
                if (lines.stream().anyMatch(line)) {
                    return;
                }
                throw new IllegalStateException("JVM " + name + " (alive " + process.isAlive() + ") did not print"
                        + " the line awaited; it printed: " + tail());
            }
            Thread.sleep(20);
        }
    }

    /** The last lines the JVM printed, for a failure's message. */
    public String tail() {
        List<String> all = new ArrayList<>(lines);
        return String.join("\n", all.subList(Math.max(0, all.size() - 40), all.size()));
    }

    /** Every line printed so far. */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** Tells a worker started with {@code waitForGo} to start working. */
    public void go() throws IOException {
        process.getOutputStream().write('\n');
        process.getOutputStream().flush();
    }

    /** Every answer so far. */
    public List<Answer> answers() {
        return List.copyOf(answers);
    }

    /** The JVM's process id. */
    public long pid() {
        return process.pid();
    }

    /** The JVM's name in the test. */
    public String name() {
        return name;
    }

    /** Whether the JVM still runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGSTOP: the JVM stops where it is; its sockets and file locks stay. */
    public void freeze() throws IOException, InterruptedException {
        signal("STOP");
        frozen = true;
    }

    /** SIGCONT. */
    public void thaw() throws IOException, InterruptedException {
        if (frozen) {
            signal("CONT");
            frozen = false;
        }
    }

    /** SIGKILL, and waits until the process is gone. */
    public void kill() throws IOException, InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        signal("KILL");
        process.waitFor(30, TimeUnit.SECONDS);
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO()
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    @Override
    public void close() throws Exception {
        thaw();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
