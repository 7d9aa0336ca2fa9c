package io.idempotent.cli;

import static io.idempotent.cli.ExampleRecords.EMAIL;
import static io.idempotent.cli.ExampleRecords.LOST_EMAIL;
import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.testing.FrozenPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's command against a PostgreSQL that stops answering without closing its sockets (a
 * frozen primary, a network partition) is bounded by the store settings the runtime honours
 * ({@code store.socket.timeout}, here {@code IDEMPOTENT_STORE_SOCKET_TIMEOUT=PT1S}): it ends with
 * the store's exit code and one error line that names the store and the setting, instead of
 * hanging. The server is frozen with SIGSTOP on its own processes ({@link FrozenPostgres}).
 */
class FrozenStoreIT {

    /** Only keeps a hanging command from hanging the build: the socket timeout is what ends it. */
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void showOnAFrozenServerFailsWithTheStoresExitCodeNamingTheSocketTimeout() throws Exception {
        try (FrozenPostgres postgres = FrozenPostgres.start(dir.resolve("postgres"))) {
            String url = postgres.jdbcUrl();
            ExampleRecords.write(url, "postgres", "postgres", dir.resolve("providers"));
            CliProcess cli = new CliProcess(Map.of("IDEMPOTENT_STORE_URL", url, "IDEMPOTENT_STORE_USER", "postgres",
                    "IDEMPOTENT_STORE_PASSWORD", "postgres", "IDEMPOTENT_STORE_SOCKET_TIMEOUT", "PT1S"), dir);
            CliProcess.Result answered = cli.run("show", EMAIL, LOST_EMAIL);
            assertThat(answered.exitCode()).as(answered.err()).isZero();
            assertThat(answered.out()).contains("u1@example.com");

            postgres.freeze();
            long start = System.nanoTime();
            CliProcess.Result frozen = cli.run(DEADLINE, "show", EMAIL, LOST_EMAIL);
            long tookMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
            postgres.thaw();
            System.out.println("FrozenStoreIT: idem show on the frozen server exited " + frozen.exitCode() + " after "
                    + tookMillis + " ms (JVM start included; store.socket.timeout PT1S): " + frozen.err().strip());

            assertThat(frozen.exitCode()).as(frozen.err()).isEqualTo(ExitCode.STORE);
            assertThat(frozen.err().strip()).as("one line").doesNotContain("\n").startsWith("error: ")
                    .contains("store \"default\"", "IDEMPOTENT_STORE_SOCKET_TIMEOUT", "PT1S")
                    .doesNotContain("\tat ").doesNotContain("postgres@");
            assertThat(frozen.out()).as("nothing read from the store").doesNotContain("u1@example.com")
                    .doesNotContain(LOST_EMAIL);
        }
    }
}
