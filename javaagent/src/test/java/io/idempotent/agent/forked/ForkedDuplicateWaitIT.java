package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A duplicate that waits ({@code duplicate.wait.ms}) for an original whose JVM dies: two JVMs
 * with {@code -javaagent:}, the original holding its key after its effect, the duplicate waiting
 * for it; the original is killed (SIGKILL, no shutdown hook) while the duplicate waits. The
 * duplicate ends, within its bound, with {@code OperationInProgressException} and never runs the
 * body: the original's lease has not been taken over, the one effect is the original's.
 */
class ForkedDuplicateWaitIT {

    private static final String RUNTIME = "io.idempotent.runtime.";
    /** The duplicate's bound: far longer than the probe tool's lease (PT2S), which ends the wait first. */
    private static final Duration BOUND = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    /**
     * On the agent's embedded default, where the dying JVM also serves the H2 file to the other
     * (AUTO_SERVER). The wait's poll on PostgreSQL and H2 alike is DuplicateWaitTest's (in one JVM);
     * a second store here would double the test's time (two forked JVMs each) for the same code.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = StoreTarget.class, names = "H2_DEFAULT")
    void aDuplicateWaitingForAJvmThatDiesEndsInProgressWithinItsBoundAndNeverRunsTheBody(StoreTarget store)
            throws Exception {
        Jdk jdk = Jdk.current();
        String order = "order_" + UUID.randomUUID().toString().substring(0, 8);
        ForkedProbe original = ForkedProbe.start(jdk, store, dir, "hold", order, "500");
        original.awaitLine("EFFECT_COMMITTED holding");

        ForkedProbe duplicate = ForkedProbe.startWithJvmOptions(
                List.of("-javaagent:" + ForkedProbe.agentJar() + store.agentArguments()),
                Map.of("IDEMPOTENT_DUPLICATE_WAIT_MS", String.valueOf(BOUND.toMillis())),
                ForkedProbe.applicationClassPath(), jdk, store, dir, "call", order, "500", "1");
        awaitWaiting(jdk, duplicate);
        long killed = System.nanoTime();
        ProcessHandle.of(original.pid()).ifPresent(ProcessHandle::destroyForcibly);
        original.finish();
        duplicate.finish();
        Duration afterTheKill = Duration.ofNanos(System.nanoTime() - killed);

        assertThat(duplicate.exitCode()).as(duplicate.output()).isZero();
        assertThat(duplicate.thrown()).as(duplicate.output()).containsExactly(RUNTIME + "OperationInProgressException");
        assertThat(effects()).as("the original's effect only").containsExactly("charge " + order + " 500");
        assertThat(store.row(dir, "charge:" + order)).hasValueSatisfying(row -> {
            assertThat(row.get(0)).as("nobody took the lease over").isEqualTo("in_progress");
            assertThat(row.get(1)).as("attempts").isEqualTo(1);
        });
        assertThat(afterTheKill).as("the duplicate ended within its bound").isLessThan(BOUND);
    }

    /** Polls the duplicate's thread dump (jcmd, with a deadline) until it waits in the runtime for the original. */
    private static void awaitWaiting(Jdk jdk, ForkedProbe duplicate) throws IOException, InterruptedException {
        Path jcmd = jdk.java().getParent().resolve("jcmd");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            Process dump = new ProcessBuilder(jcmd.toString(), String.valueOf(duplicate.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            String threads = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            dump.waitFor(30, TimeUnit.SECONDS);
            if (threads.contains("io.idempotent.runtime.internal.DuplicateWaits")) {
                return;
            }
            assertThat(duplicate.thrown()).as("the duplicate answered before it waited:\n" + duplicate.output())
                    .isEmpty();
            TimeUnit.MILLISECONDS.sleep(100); // between two polls of another JVM's threads
        }
        throw new AssertionError("the duplicate did not wait within 90 s:\n" + duplicate.output());
    }

    private List<String> effects() throws IOException {
        Path file = dir.resolve("effects.log");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }
}
