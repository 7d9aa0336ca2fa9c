package io.idempotent.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the built executable jar as an operator would: {@code java -jar idempotent-cli.jar ...}. */
final class CliProcess {

    /** What one run printed and returned. */
    record Result(int exitCode, String out, String err) {
    }

    private final Map<String, String> environment;
    private final Path workDir;

    CliProcess(Map<String, String> environment, Path workDir) {
        this.environment = environment;
        this.workDir = workDir;
    }

    static Path jar() {
        String jar = System.getProperty("cli.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("the executable jar is missing (system property cli.jar = " + jar
                    + "); run the tests with mvn verify");
        }
        return Path.of(jar);
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A process builder for the jar with {@code args}, this run's environment and working directory. */
    ProcessBuilder builder(String... args) {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", jar().toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("IDEMPOTENT_"));
        builder.environment().putAll(environment);
        return builder;
    }

    Result run(String... args) throws IOException, InterruptedException {
        return run(Duration.ofSeconds(120), args);
    }

    /** Runs {@code args}; a run that has not finished by {@code deadline} is killed and fails the test. */
    Result run(Duration deadline, String... args) throws IOException, InterruptedException {
        File out = Files.createTempFile(workDir, "out", ".txt").toFile();
        File err = Files.createTempFile(workDir, "err", ".txt").toFile();
        Process process = builder(args).redirectOutput(out).redirectError(err).start();
        if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("idempotent-cli " + String.join(" ", args) + " did not finish in "
                    + deadline.toSeconds() + " s");
        }
        return new Result(process.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8),
                Files.readString(err.toPath(), StandardCharsets.UTF_8));
    }
}
