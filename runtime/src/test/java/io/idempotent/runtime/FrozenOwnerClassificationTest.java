package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.H2FileOwner;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import io.idempotent.runtime.testing.EmbeddedStoreProcess;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.Policies;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM that serves an embedded store's file is frozen (SIGSTOP) and its H2 server cannot be
 * reached (its accept queue is full, as when many connections came in during a long stall): H2
 * in another JVM then takes the lock file over and fails on the operating-system lock that the
 * frozen process still holds ("The file is locked", H2 error 90020, the lock file deleted
 * again). That is a store changing hands, not a file "held by a process that does not share
 * it", nor a corrupted one: every call is told to retry later, within the bound, with the holder
 * named, and once the owner runs again the same runtime answers.
 */
class FrozenOwnerClassificationTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();

    @Test
    void aFrozenOwnerWhoseServerCannotBeReachedIsAStoreChangingHandsNeverAConfigurationError(@TempDir Path dir)
            throws Exception {
        Path database = dir.resolve("operations");
        String url = "jdbc:h2:file:" + database + ";AUTO_SERVER=TRUE";
        List<Socket> queue = new ArrayList<>();
        EmbeddedStoreProcess owner = EmbeddedStoreProcess.open(database, false);
        IdempotentRuntime runtime = null;
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            String server = H2FileOwner.of(database).serverAddress();
            assertThat(server).as("the owner's server in the lock file").isNotNull();
            signal("STOP", owner.pid());
            fillAcceptQueue(server, queue);

            RuntimeConfiguration configuration = new RuntimeConfiguration(Map.of("idempotent.store.url", url,
                    "idempotent.store.connect.timeout", "PT3S", "idempotent.store.socket.timeout", "PT2S"), Map.of());
            runtime = IdempotentRuntime.builder().settings(configuration.store("default")).build();
            FakeProvider provider = new FakeProvider();
            IdempotentRuntime store = runtime;
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                // The deadline only keeps a hanging call from hanging the build.
                Throwable refused = caller.submit(() -> catchThrowable(() -> store.call(REFUND, "refund:frozen",
                        Map.of("id", "1"), String.class, () -> provider.apply("refund:frozen"))))
                        .get(60, TimeUnit.SECONDS);
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                System.out.println("FrozenOwnerClassificationTest: call " + i + " answered after " + millis + " ms: "
                        + refused);
                assertThat(refused).isInstanceOf(StoreUnavailableException.class)
                        .hasMessageContaining("another JVM").hasMessageContaining(Long.toString(owner.pid()))
                        .hasMessageNotContaining("corrupt").hasMessageNotContaining("backup")
                        .hasMessageNotContaining("aside").hasMessageNotContaining("does not share");
                assertThat(((IdempotencyException) refused).retryable()).isTrue();
                assertThat(millis).as("answered within connect timeout + 1 s, with slack").isLessThan(7000);
            }
            assertThat(provider.invocations()).isZero();

            signal("CONT", owner.pid());
            closeAll(queue);
            String answered = StoreRecoveryTest.firstSuccess(() -> store.call(REFUND, "refund:after",
                    Map.of("id", "2"), String.class, () -> provider.apply("refund:after")), Duration.ofSeconds(30));
            assertThat(answered).isEqualTo("done:refund:after");
        } finally {
            signal("CONT", owner.pid());
            caller.shutdownNow();
            closeAll(queue);
            if (runtime != null) {
                runtime.close();
            }
            owner.close();
        }
    }

    /** Connects to the frozen server until the kernel accepts no more connections for it. */
    private static void fillAcceptQueue(String server, List<Socket> queue) {
        String host = server.substring(0, server.lastIndexOf(':'));
        int port = Integer.parseInt(server.substring(server.lastIndexOf(':') + 1));
        for (int i = 0; i < 1000; i++) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(host, port), 200);
                queue.add(socket);
            } catch (IOException full) {
                closeAll(List.of(socket));
                return;
            }
        }
        throw new IllegalStateException("the frozen server's accept queue did not fill");
    }

    private static void closeAll(List<Socket> sockets) {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // closing is best effort
            }
        }
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }
}
