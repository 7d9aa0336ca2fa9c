package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.FrozenPostgres;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
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
        FrozenPostgres postgres = FrozenPostgres.start(data);
        ExecutorService caller = Executors.newSingleThreadExecutor();
        IdempotentRuntime runtime = null;
        try {
            String url = postgres.jdbcUrl();
            RuntimeConfiguration configuration = new RuntimeConfiguration(Map.of("idempotent.store.url", url,
                    "idempotent.store.user", "postgres", "idempotent.store.password", "postgres",
                    "idempotent.store.socket.timeout", "PT1S"), Map.of());
            FakeProvider provider = new FakeProvider();
            runtime = IdempotentRuntime.builder().settings(configuration.store("default")).build();
            IdempotentRuntime store = runtime;
            assertThat(refund(store, provider, "refund:before")).isEqualTo("done:refund:before");

            postgres.freeze();
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

            postgres.thaw();
            String answered = StoreRecoveryTest.firstSuccess(() -> refund(store, provider, "refund:after"),
                    Duration.ofSeconds(30));
            assertThat(answered).isEqualTo("done:refund:after");
            assertThat(provider.effects()).isEqualTo(2);
            assertThat(provider.applied("refund:frozen")).isFalse();
        } finally {
            // A frozen server can neither be stopped nor answer the runtime's closing writes.
            postgres.thaw();
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
}
