package io.idempotent.agent.forked;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One forked JVM running {@code io.idempotent.it.probe.AgentProbe} with {@code -javaagent:} on
 * the built agent jar. Its class path is this JVM's minus the agent's own classes and Byte Buddy,
 * so the agent can only come from the jar, as in an application. Output (stdout and stderr) is
 * collected line by line while it runs.
 */
final class ForkedProbe {

    private static final String MAIN = "io.idempotent.it.probe.AgentProbe";

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private ForkedProbe(Process process) {
        this.process = process;
        this.reader = new Thread(this::readLines, "probe-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the probe in {@code dir} on {@code jdk} against {@code store}. */
    static ForkedProbe start(Jdk jdk, StoreTarget store, Path dir, String... args) {
        return startWithClassPath(applicationClassPath(), jdk, store, dir, args);
    }

    /** Starts the probe with an explicit class path. */
    static ForkedProbe startWithClassPath(String classPath, Jdk jdk, StoreTarget store, Path dir, String... args) {
        return launch(List.of(jdk.java().toString(), "-javaagent:" + agentJar() + store.agentArguments(), "-cp",
                classPath, MAIN), store, dir, args);
    }

    /**
     * Starts the probe with the agent given {@code agentArguments} (the text after {@code =}) and
     * the environment of {@code store}.
     */
    static ForkedProbe startWithAgentArguments(String agentArguments, Jdk jdk, StoreTarget store, Path dir,
            String... args) {
        return launch(List.of(jdk.java().toString(), "-javaagent:" + agentJar() + "=" + agentArguments, "-cp",
                applicationClassPath(), MAIN), store, dir, args);
    }

    /**
     * Starts the probe with {@code jvmOptions} in place of the one {@code -javaagent:} (none is
     * added) and {@code environment} added to the store's, on {@code classPath}.
     */
    static ForkedProbe startWithJvmOptions(List<String> jvmOptions, Map<String, String> environment,
            String classPath, Jdk jdk, StoreTarget store, Path dir, String... args) {
        List<String> java = new ArrayList<>();
        java.add(jdk.java().toString());
        java.addAll(jvmOptions);
        java.addAll(List.of("-cp", classPath, MAIN));
        return launch(java, environment, store, dir, args);
    }

    /**
     * Starts {@code mainClass} of the named module {@code module}, found on {@code modulePath}, with
     * the agent and {@code jvmOptions}; this JVM's application class path stays the class path.
     */
    static ForkedProbe startModule(Path modulePath, String module, String mainClass, List<String> jvmOptions,
            Jdk jdk, StoreTarget store, Path dir, String... args) {
        List<String> java = new ArrayList<>(List.of(jdk.java().toString(), "-javaagent:" + agentJar()
                + store.agentArguments(), "--module-path", modulePath.toString()));
        java.addAll(jvmOptions);
        java.addAll(List.of("-cp", applicationClassPath(), "-m", module + "/" + mainClass));
        return launch(java, store, dir, args);
    }

    /** Starts the probe without the agent, for a test that attaches it to the running JVM. */
    static ForkedProbe startWithoutAgent(Jdk jdk, StoreTarget store, Path dir, String... args) {
        return launch(List.of(jdk.java().toString(), "-cp", applicationClassPath(), MAIN), store, dir, args);
    }

    private static ForkedProbe launch(List<String> java, StoreTarget store, Path dir, String... args) {
        return launch(java, Map.of(), store, dir, args);
    }

    private static ForkedProbe launch(List<String> java, Map<String, String> environment, StoreTarget store, Path dir,
            String... args) {
        List<String> command = new ArrayList<>(java);
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        // Nothing from this JVM's environment may configure the child's store.
        builder.environment().keySet().removeIf(name -> name.startsWith("IDEMPOTENT_")
                || name.equals("JAVA_TOOL_OPTIONS") || name.equals("JDK_JAVA_OPTIONS"));
        builder.environment().putAll(store.environment());
        builder.environment().putAll(environment);
        try {
            return new ForkedProbe(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** This JVM's class path without the agent's classes and Byte Buddy. */
    static String applicationClassPath() {
        String agentJar = agentJar().toString();
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.equals(agentJar))
                .filter(entry -> !Path.of(entry).endsWith(Path.of("javaagent", "target", "classes")))
                .filter(entry -> !entry.contains("byte-buddy"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * This JVM's application class path with the test classes copied into {@code copy}, all but
     * the class files {@code left out} (paths relative to the class path root).
     */
    static String applicationClassPathWithout(Path copy, String... leftOut) {
        Set<Path> omitted = Arrays.stream(leftOut).map(Path::of).collect(Collectors.toSet());
        return Arrays.stream(applicationClassPath().split(File.pathSeparator)).map(entry -> {
            Path root = Path.of(entry);
            if (!root.endsWith("test-classes")) {
                return entry;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Path relative = root.relativize(file);
                    if (omitted.contains(relative)) {
                        continue;
                    }
                    Path target = copy.resolve(relative.toString());
                    if (Files.isDirectory(file)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(file, target);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return copy.toString();
        }).collect(Collectors.joining(File.pathSeparator));
    }

    /** The class path entries that match {@code filter}. */
    static String classPathOf(Predicate<String> filter) {
        return Arrays.stream(applicationClassPath().split(File.pathSeparator)).filter(filter)
                .collect(Collectors.joining(File.pathSeparator));
    }

    static Path agentJar() {
        String jar = System.getProperty("build.agent.jar");
        if (jar == null) {
            throw new IllegalStateException("run by failsafe after package: build.agent.jar is not set");
        }
        return Path.of(jar);
    }

    /** Waits until a line starting with {@code prefix} was printed. */
    void awaitLine(String prefix) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        synchronized (lines) {
            while (lines.stream().noneMatch(l -> l.startsWith(prefix))) {
                long left = deadline - System.nanoTime();
                if (!reader.isAlive()) {
                    throw new AssertionError("the probe exited before printing " + prefix + ":\n" + output());
                }
                if (left <= 0) {
                    throw new AssertionError("no line " + prefix + " within 90 s:\n" + output());
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lines, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                }
            }
        }
    }

    /** Waits for the JVM to exit and for its output to be read. */
    ForkedProbe finish() {
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the probe did not finish within 120 s:\n" + output());
            }
            reader.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return this;
    }

    long pid() {
        return process.pid();
    }

    int exitCode() {
        return process.exitValue();
    }

    String output() {
        return String.join("\n", lines);
    }

    /** The {@code OUTCOME} lines, without the prefix: {@code <label> RESULT ...} or {@code <label> THROWN ...}. */
    List<String> outcomes() {
        return lines.stream().filter(l -> l.startsWith("OUTCOME ")).map(l -> l.substring("OUTCOME ".length()))
                .toList();
    }

    /** The result part of every outcome that returned. */
    List<String> results() {
        return outcomes().stream().filter(o -> o.contains(" RESULT ")).map(o -> o.substring(o.indexOf(" RESULT ") + 8))
                .toList();
    }

    /** The exception class of every outcome that threw. */
    List<String> thrown() {
        return outcomes().stream().filter(o -> o.contains(" THROWN ")).map(o -> o.split(" ")[2]).toList();
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    private void add(String line) {
        synchronized (lines) {
            lines.add(line);
            lines.notifyAll();
        }
    }

    private void readLines() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                add(line);
            }
        } catch (IOException e) {
            add("(output unreadable: " + e + ")");
        } finally {
            synchronized (lines) {
                lines.notifyAll();
            }
        }
    }
}
