package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.bootstrap.runner.QuarkusEntryPoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's start in the packagings whose classes and libraries the system class loader does
 * not see, laid out as Spring Boot's {@code repackage} and Quarkus's fast-jar lay them out: the
 * start line counts the tools their tables list (and never says wrapped 0 for tools it will wrap
 * later), {@code failOnMissingRuntime=true} finds the runtime where the application's class loader
 * will, and without it stops the JVM with its own exit status and a message naming the packaging,
 * never a JVM fatal error. The launcher is a stand-in main class; the real frameworks run in
 * getting-started-it.
 */
class PackagingIT {

    private static final String DISPATCHER = "io/idempotent/runtime/agent/ToolDispatcher.class";
    private static final String TABLE = "META-INF/idempotent/tools.json";

    @TempDir
    Path dir;

    @Test
    void aBootJarsNestedTablesAreCountedAndItsNestedRuntimeFound() throws Exception {
        Path jar = bootJar(true);
        Run run = run(jar, "=failOnMissingRuntime=true");
        assertThat(run.output).contains("[idempotent-agent] started: will wrap 3 tool method(s) when the application's"
                + " class loader loads their classes (a line each); 3 listed in META-INF/idempotent/tools.json in a"
                + " Spring Boot jar").doesNotContain("wrapped 0").doesNotContain("ERROR")
                // The agent keeps H2's servers on loopback before any application code runs.
                .contains("main ran: h2.bindAddress=127.0.0.1");
        assertThat(run.exit).as(run.output).isZero();
    }

    @Test
    void anExecutableBootWarIsReadThroughItsOwnManifestsPlaces() throws Exception {
        Run run = run(bootArchive("app.war", "WEB-INF/classes/", "WEB-INF/lib/", true), "=failOnMissingRuntime=true");
        assertThat(run.output).contains("[idempotent-agent] started: will wrap 3 tool method(s) when the application's"
                + " class loader loads their classes (a line each); 3 listed in META-INF/idempotent/tools.json in a"
                + " Spring Boot war").doesNotContain("wrapped 0").doesNotContain("ERROR");
        assertThat(run.exit).as(run.output).isZero();
    }

    @Test
    void aBootJarWithoutTheRuntimeStopsWithItsOwnStatusNamingWhereTheAgentLooked() throws Exception {
        Run run = run(bootJar(false), "=failOnMissingRuntime=true");
        assertThat(run.output).contains("[idempotent-agent] ERROR idempotent-runtime is not in the application and"
                + " failOnMissingRuntime=true: stopping the JVM (exit status 78). The application is a Spring Boot jar")
                .contains("BOOT-INF/classes/ and the jars in BOOT-INF/lib/").doesNotContain("FATAL")
                .doesNotContain("main ran");
        assertThat(run.exit).as(run.output).isEqualTo(78);
    }

    @Test
    void aQuarkusFastJarsTablesAreCountedAndItsRuntimeInLibMainFound() throws Exception {
        Run run = run(fastJar(true), "=failOnMissingRuntime=true");
        assertThat(run.output).contains("[idempotent-agent] started: will wrap 3 tool method(s) when the application's"
                + " class loader loads their classes (a line each); 3 listed in META-INF/idempotent/tools.json in a"
                + " Quarkus fast-jar").doesNotContain("wrapped 0").doesNotContain("ERROR").contains("main ran");
        assertThat(run.exit).as(run.output).isZero();
    }

    @Test
    void aQuarkusFastJarWithoutTheRuntimeStopsWithItsOwnStatusNotAFatalError() throws Exception {
        Run run = run(fastJar(false), "=failOnMissingRuntime=true");
        assertThat(run.output).contains("stopping the JVM (exit status 78). The application is a Quarkus fast-jar")
                .contains("the jars in app/ and lib/main/ of").doesNotContain("FATAL").doesNotContain("main ran");
        assertThat(run.exit).as(run.output).isEqualTo(78);
    }

    /** A jar as Boot's repackage writes it: two tools in the application's classes, one in a library. */
    private Path bootJar(boolean withRuntime) throws IOException {
        return bootArchive("app.jar", "BOOT-INF/classes/", "BOOT-INF/lib/", withRuntime);
    }

    /** An archive laid out as Boot's repackage lays out a jar or an executable war (its manifest names the places). */
    private Path bootArchive(String name, String classes, String lib, boolean withRuntime) throws IOException {
        Path jar = dir.resolve(name);
        Manifest manifest = manifest(QuarkusEntryPoint.class.getName());
        manifest.getMainAttributes().putValue("Spring-Boot-Classes", classes);
        manifest.getMainAttributes().putValue("Spring-Boot-Lib", lib);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            entry(out, classFile(QuarkusEntryPoint.class), launcherBytes());
            entry(out, classes + TABLE, table("com.example.RefundTools", "refund", "cancel"));
            entry(out, lib + "tools-lib-1.0.jar", nestedJar(Map.of(TABLE, table("com.lib.LibTools", "lookup"))));
            entry(out, lib + "other-1.0.jar", nestedJar(Map.of("other/Thing.class", new byte[1])));
            if (withRuntime) {
                entry(out, lib + "idempotent-runtime-0.1.0.jar", nestedJar(Map.of(DISPATCHER, new byte[1])));
            }
        }
        return jar;
    }

    /** A fast-jar: quarkus-run.jar beside app/ (the application's jar) and lib/main/ (its libraries). */
    private Path fastJar(boolean withRuntime) throws IOException {
        Path app = dir.resolve("quarkus-app");
        Files.createDirectories(app.resolve("app"));
        Files.createDirectories(app.resolve("lib/main"));
        Path run = app.resolve("quarkus-run.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(run),
                manifest(QuarkusEntryPoint.class.getName()))) {
            entry(out, classFile(QuarkusEntryPoint.class), launcherBytes());
        }
        Files.write(app.resolve("app/refunds-1.0.jar"), nestedJar(Map.of(TABLE,
                table("com.example.RefundTools", "refund", "cancel"))));
        Files.write(app.resolve("lib/main/com.lib.tools-lib-1.0.jar"), nestedJar(Map.of(TABLE,
                table("com.lib.LibTools", "lookup"))));
        if (withRuntime) {
            Files.write(app.resolve("lib/main/io.idempotent.idempotent-runtime-0.1.0.jar"),
                    nestedJar(Map.of(DISPATCHER, new byte[1])));
        }
        return run;
    }

    private static Manifest manifest(String mainClass) {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        return manifest;
    }

    private static byte[] table(String className, String... methods) {
        List<String> tools = new ArrayList<>();
        for (String method : methods) {
            tools.add("{\"name\": \"" + method + "\", \"class\": \"" + className + "\", \"method\": \"" + method
                    + "(java.lang.String id)\"}");
        }
        return ("{\"tools\": [" + String.join(", ", tools) + "]}").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] nestedJar(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream out = new JarOutputStream(bytes, manifest("none"))) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                entry(out, e.getKey(), e.getValue());
            }
        }
        return bytes.toByteArray();
    }

    private static void entry(JarOutputStream out, String name, byte[] content) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(content);
        out.closeEntry();
    }

    private static String classFile(Class<?> type) {
        return type.getName().replace('.', '/') + ".class";
    }

    private static byte[] launcherBytes() throws IOException {
        try (InputStream in = QuarkusEntryPoint.class.getResourceAsStream("QuarkusEntryPoint.class")) {
            return in.readAllBytes();
        }
    }

    private record Run(int exit, String output) {
    }

    private Run run(Path jar, String agentArguments) throws Exception {
        Path log = dir.resolve("run-" + System.nanoTime() + ".log");
        Process process = new ProcessBuilder(Jdk.current().java().toString(),
                "-javaagent:" + System.getProperty("build.agent.jar") + agentArguments, "-jar", jar.toString())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try (OutputStream stdin = process.getOutputStream()) {
            // nothing to send
        }
        boolean finished = process.waitFor(60, TimeUnit.SECONDS);
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (!finished) {
            process.destroyForcibly();
        }
        assertThat(finished).as("the JVM finished; output:%n%s", output).isTrue();
        return new Run(process.exitValue(), output);
    }
}
