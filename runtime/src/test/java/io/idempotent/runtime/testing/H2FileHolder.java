package io.idempotent.runtime.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another process that opens an H2 file database the plain embedded way (no {@code AUTO_SERVER}),
 * as a second application or an H2 console pointed at the same file would, and holds it until
 * its standard input closes.
 */
public final class H2FileHolder implements AutoCloseable {

    private static final String READY = "holding";

    private final Process process;

    private H2FileHolder(Process process) {
        this.process = process;
    }

    /** Starts a JVM that holds {@code database} (a path without {@code .mv.db}), once it holds it. */
    public static H2FileHolder hold(Path database, String user, String password) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(H2FileHolder.class.getName());
        command.add("jdbc:h2:file:" + database);
        command.add(user);
        command.add(password);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        InputStream out = process.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int ch; (ch = out.read()) >= 0 && ch != '\n'; ) {
            line.append((char) ch);
        }
        if (!line.toString().equals(READY)) {
            process.destroyForcibly();
            throw new IllegalStateException("the holder did not open " + database + ": " + line);
        }
        return new H2FileHolder(process);
    }

    @Override
    public void close() throws Exception {
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /** Opens {@code args[0]} as {@code args[1]} / {@code args[2]}, says so, and holds it until stdin closes. */
    public static void main(String[] args) throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection(args[0], args[1], args[2])) {
            System.out.println(READY);
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the database until the test closes our input
            }
        }
    }
}
