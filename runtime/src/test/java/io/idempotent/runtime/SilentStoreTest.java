package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL server that stops answering without closing its sockets (a network partition, a
 * frozen host: not a crash) fails a call within {@code store.socket.timeout}, as a retryable
 * {@link StoreUnavailableException} before the body runs, and the same runtime answers again
 * once the server does. The server is frozen with SIGSTOP on every one of its processes, on a
 * PostgreSQL of this test's own (the shared test server must keep answering the other tests).
 */
class SilentStoreTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();

    @Test
    void aCallToAFrozenServerFailsClosedWithinTheSocketTimeoutAndTheSameRuntimeRecovers(@TempDir Path data)
            throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false)
                .start();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        List<Long> frozen = new ArrayList<>();
        IdempotentRuntime runtime = null;
        try {
            String url = postgres.getJdbcUrl("postgres", "postgres");
            RuntimeConfiguration configuration = new RuntimeConfiguration(Map.of("idempotent.store.url", url,
                    "idempotent.store.user", "postgres", "idempotent.store.password", "postgres",
                    "idempotent.store.socket.timeout", "PT1S"), Map.of());
            FakeProvider provider = new FakeProvider();
            runtime = IdempotentRuntime.builder().settings(configuration.store("default")).build();
            IdempotentRuntime store = runtime;
            assertThat(refund(store, provider, "refund:before")).isEqualTo("done:refund:before");

            frozen.addAll(signal("STOP", serverProcesses(data)));
            AtomicReference<Long> tookMillis = new AtomicReference<>();
            // The deadline only keeps a hanging call from hanging the build; the socket timeout is what ends it.
            Throwable refused = caller.submit(() -> {
                long start = System.nanoTime();
                Throwable thrown = catchThrowable(() -> refund(store, provider, "refund:frozen"));
                tookMillis.set(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                return thrown;
            }).get(60, TimeUnit.SECONDS);
            System.out.println("SilentStoreTest: the call to the frozen server failed after " + tookMillis.get()
                    + " ms (store.socket.timeout PT1S)");

            assertThat(refused).isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("refund:frozen").hasMessageContaining("the body did not run");
            assertThat(((IdempotencyException) refused).retryable()).isTrue();
            assertThat(provider.invocations()).as("bodies run while the server was frozen").isEqualTo(1);

            signal("CONT", frozen);
            frozen.clear();
            String answered = StoreRecoveryTest.firstSuccess(() -> refund(store, provider, "refund:after"),
                    Duration.ofSeconds(30));
            assertThat(answered).isEqualTo("done:refund:after");
            assertThat(provider.effects()).isEqualTo(2);
            assertThat(provider.applied("refund:frozen")).isFalse();
        } finally {
            // A frozen server can neither be stopped nor answer the runtime's closing writes.
            signal("CONT", frozen);
            caller.shutdownNow();
            if (runtime != null) {
                runtime.close();
            }
            postgres.close();
        }
    }

    private static String refund(IdempotentRuntime runtime, FakeProvider provider, String key) {
        return runtime.call(REFUND, key, Map.of("invoiceId", key), String.class, () -> provider.apply(key, key));
    }

    /** The postmaster (first line of the data directory's postmaster.pid) and every process it started. */
    private static List<Long> serverProcesses(Path data) throws IOException {
        long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        List<Long> pids = new ArrayList<>();
        pids.add(postmaster);
        ProcessHandle.of(postmaster).orElseThrow().descendants().forEach(p -> pids.add(p.pid()));
        return pids;
    }

    private static List<Long> signal(String signal, List<Long> pids) throws IOException, InterruptedException {
        if (pids.isEmpty()) {
            return pids;
        }
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        Process kill = new ProcessBuilder(command).inheritIO().start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as(String.join(" ", command)).isZero();
        return pids;
    }
}
