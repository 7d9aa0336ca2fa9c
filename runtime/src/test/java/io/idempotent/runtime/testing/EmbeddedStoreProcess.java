package io.idempotent.runtime.testing;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A fresh JVM that opens an embedded H2 store the way an application does (a URL, nothing else),
 * records one call, and keeps the store open, serving it with {@code AUTO_SERVER}, until its
 * standard input closes: what H2 does in a JVM depends on what it did first in that JVM, which a
 * test JVM that ran other tests cannot show.
 */
public final class EmbeddedStoreProcess implements AutoCloseable {

    private static final String READY = "store open";

    private final Process process;
    private final List<String> output;

    private EmbeddedStoreProcess(Process process, List<String> output) {
        this.process = process;
        this.output = output;
    }

    /**
     * Starts a JVM on {@code database} (a path without {@code .mv.db}); with {@code h2First} it
     * uses H2 (an in-memory database) before the store opens, as an application with H2 of its
     * own may. Returns once the store is open.
     */
    public static EmbeddedStoreProcess open(Path database, boolean h2First, String... jvmOptions) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(EmbeddedStoreProcess.class.getName());
        command.add("jdbc:h2:file:" + database + ";AUTO_SERVER=TRUE");
        command.add(String.valueOf(h2First));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        InputStream out = process.getInputStream();
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (int ch; (ch = out.read()) >= 0; ) {
            if (ch != '\n') {
                line.append((char) ch);
                continue;
            }
            if (line.toString().equals(READY)) {
                return new EmbeddedStoreProcess(process, lines);
            }
            lines.add(line.toString());
            line.setLength(0);
        }
        process.destroyForcibly();
        throw new IllegalStateException("the store's JVM did not open " + database + ": " + lines + line);
    }

    /** The JVM's process id (for a test that freezes it). */
    public long pid() {
        return process.pid();
    }

    /** What the JVM printed (its log included) before the store was open. */
    public List<String> output() {
        return output;
    }

    @Override
    public void close() throws Exception {
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /** Opens the store {@code args[0]}, H2 first when {@code args[1]} is true; says so; holds it until stdin closes. */
    public static void main(String[] args) throws Exception {
        if (Boolean.parseBoolean(args[1])) {
            DriverManager.getConnection("jdbc:h2:mem:application", "sa", "").close();
        }
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", args[0], null, null).build()) {
            runtime.call(Policies.downstreamKey("refund", Retry.SAFE).build(), "refund:1", Map.of("invoiceId", "i"),
                    String.class, () -> "done");
            System.out.flush();
            System.err.flush();
            System.out.write((READY + "\n").getBytes(StandardCharsets.US_ASCII));
            System.out.flush();
            while (System.in.read() >= 0) {
                // keep serving the store until the test closes our input
            }
        }
    }
}
