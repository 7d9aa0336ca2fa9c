package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The store half of the readiness check, against real H2 stores: one that answers, one refused, one silent. */
class StoreReachabilityTest {

    private static final Duration BOUND = Duration.ofSeconds(5);

    @Test
    void aStoreThatAnswersIsReachableAndTheCheckWritesNothing() {
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "").build()) {
            assertThat(StoreReachability.check(runtime, BOUND)).containsExactly(new StoreCheck("default", true, ""));
            assertThat(runtime.operations().find(StoreReachability.PROBE_TOOL, StoreReachability.PROBE_KEY))
                    .isEmpty();
        }
    }

    @Test
    void aStoreWithoutAServerIsUnreachableAndNamedWithoutItsPassword() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "")
                .store("ledger", "jdbc:h2:tcp://127.0.0.1:" + closedPort + "/nowhere", "u", "secret-pw").build()) {
            List<StoreCheck> checks = StoreReachability.check(runtime, BOUND);
            assertThat(checks).extracting(StoreCheck::store, StoreCheck::reachable)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("default", true),
                            org.assertj.core.groups.Tuple.tuple("ledger", false));
            assertThat(checks.get(1).detail()).startsWith("store \"ledger\" refused a read: ")
                    .contains(String.valueOf(closedPort)).doesNotContain("secret-pw");
        }
    }

    @Test
    void aSilentStoreIsUnreachableWithinTheBoundAndAskedOnceAtATime() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept()); // and never answers
                    }
                } catch (Exception closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                    .store("default", "jdbc:h2:tcp://127.0.0.1:" + silent.getLocalPort() + "/silent", "u", "pw")
                    .build()) {
                Duration bound = Duration.ofMillis(300);
                StoreCheck first = StoreReachability.check(runtime, bound).get(0);
                assertThat(first.reachable()).isFalse();
                assertThat(first.detail()).isEqualTo("store \"default\" did not answer a read within PT0.3S; see its"
                        + " store.connect.timeout and store.socket.timeout, and the database's own state");
                long readers = readers();
                assertThat(StoreReachability.check(runtime, bound).get(0).reachable()).isFalse();
                assertThat(readers()).as("reader threads after a second check of the silent store")
                        .isEqualTo(readers);
            } finally {
                for (Socket socket : accepted) {
                    socket.close();
                }
            }
        }
    }

    private static long readers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("idempotent-readiness") && t.isAlive()).count();
    }
}
