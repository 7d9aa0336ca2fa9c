package io.idempotent.cli;

import static io.idempotent.cli.ExampleRecords.EMAIL;
import static io.idempotent.cli.ExampleRecords.REFUND;
import static io.idempotent.cli.ExampleRecords.UNSENT_EMAIL;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application on a newer H2 (2.4, as Spring Boot 4.0 and Quarkus choose) and the command line
 * (built with the library's H2, 2.3) share one embedded store file, as docs/frameworks.md's
 * supported versions say they may: while the application holds the file (the command line reaches
 * it through the application's auto-server) and while nobody does (each opens the file itself, one
 * after the other), every record each wrote is read back by the other, an operator's settlement
 * lets the application's next call run, and the stored refund replays. Two real JVMs with different
 * H2 jars.
 */
class MixedH2VersionsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void anApplicationOnH2Version24AndTheCommandLineOnH2Version23ShareOneStoreFile() throws Exception {
        Path newerH2 = Path.of(System.getProperty("build.h2.newer.jar"));
        assertThat(newerH2).exists();
        assertThat(newerH2.getFileName().toString()).startsWith("h2-2.4.");
        String url = "jdbc:h2:file:" + dir.resolve("store").resolve("operations").toAbsolutePath()
                + ";AUTO_SERVER=TRUE";
        CliProcess cli = new CliProcess(new Stores.Store(url, "sa", "").environment(), dir);
        assertThat(h2VersionIn(CliProcess.jar())).startsWith("2.3.");

        // The application creates the store and its records on H2 2.4; the command line opens the file itself.
        assertThat(application(newerH2, "write").waitForOutput()).contains("h2 jar: ", newerH2.getFileName().toString(),
                "written");
        JsonNode stats = JSON.readTree(ok(cli.run("stats", "--json")));
        assertThat(stats.path(REFUND).path("completed").asLong()).isEqualTo(1);
        assertThat(stats.path(EMAIL).path("needs_reconciliation").asLong()).isEqualTo(2);

        // The application holds the file; the command line reads and writes through its auto-server.
        App holder = application(newerH2, "hold");
        holder.awaitLine("ready");
        ok(cli.run("settle", "not-applied", EMAIL, UNSENT_EMAIL, "--reason", "no message with reference idem:"
                + UNSENT_EMAIL, "--operator", "alice"));
        String held = holder.proceed();
        assertThat(held).contains("email: EmailReceipt[", newerH2.getFileName().toString()).doesNotContain("Exception");
        assertThat(held.lines().filter(l -> l.startsWith("refund: ")).distinct()).hasSize(1);

        // Nobody holds the file: the command line (2.3) opens what 2.4 wrote last, then 2.4 what 2.3 wrote.
        stats = JSON.readTree(ok(cli.run("stats", "--json")));
        assertThat(stats.path(EMAIL).path("completed").asLong()).isEqualTo(1);
        assertThat(stats.path(REFUND).path("completed").asLong()).isEqualTo(1);
        assertThat(application(newerH2, "replay").waitForOutput()).contains("refund: Refund[", "done",
                newerH2.getFileName().toString());
    }

    /** What a successful command printed on standard output. */
    private static String ok(CliProcess.Result result) {
        assertThat(result.exitCode()).as("exit code; stderr:%n%s", result.err()).isZero();
        return result.out();
    }

    /** The H2 version inside the command line's jar, as that H2 tells it (its Constants, loaded from the jar). */
    private static String h2VersionIn(Path jar) throws Exception {
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader(new java.net.URL[] {jar.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> constants = Class.forName("org.h2.engine.Constants", false, loader);
            return constants.getField("VERSION_MAJOR").get(null) + "." + constants.getField("VERSION_MINOR").get(null)
                    + "." + constants.getField("BUILD_ID").get(null);
        }
    }

    /** Starts the application in a JVM whose class path has {@code newerH2} in place of the build's H2. */
    private App application(Path newerH2, String mode) throws IOException {
        List<String> classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).getFileName().toString().matches("h2-\\d.*\\.jar"))
                // the command line's own jar, which carries the build's H2 inside
                .filter(entry -> !Path.of(entry).toAbsolutePath().equals(CliProcess.jar().toAbsolutePath()))
                .collect(Collectors.toCollection(ArrayList::new));
        classPath.add(newerH2.toString());
        String url = "jdbc:h2:file:" + dir.resolve("store").resolve("operations").toAbsolutePath()
                + ";AUTO_SERVER=TRUE";
        List<String> command = List.of(CliProcess.java(), "-cp", String.join(File.pathSeparator, classPath),
                NewerH2Application.class.getName(), mode, url, dir.resolve("providers").toString());
        return new App(new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start());
    }

    /** A running application: its output read line by line. */
    private static final class App {
        private final Process process;
        private final BufferedReader out;
        private final StringBuilder seen = new StringBuilder();

        App(Process process) {
            this.process = process;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        /** Reads until {@code line}; the application's end before it fails the test. */
        void awaitLine(String line) throws IOException {
            for (String l = out.readLine(); l != null; l = out.readLine()) {
                seen.append(l).append('\n');
                if (l.equals(line)) {
                    return;
                }
            }
            throw new AssertionError("the application ended before \"" + line + "\":\n" + seen);
        }

        /** Lets a holding application go on; its output from there, once it ended well. */
        String proceed() throws Exception {
            try (Writer in = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8)) {
                in.write("go\n");
            }
            return waitForOutput();
        }

        /** The whole output, once the application ended with exit code 0 (within a generous deadline). */
        String waitForOutput() throws Exception {
            String rest = out.lines().collect(Collectors.joining("\n"));
            seen.append(rest);
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("the application did not end:\n" + seen);
            }
            assertThat(process.exitValue()).as("the application's exit code; output:%n%s", seen).isZero();
            return seen.toString();
        }
    }
}
