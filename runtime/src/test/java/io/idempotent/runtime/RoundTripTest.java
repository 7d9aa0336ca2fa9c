package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.CountingDataSource;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How many statements (database round trips) each outcome costs the caller; a change that adds
 * one to the hot path shows up here. A fresh call is its claim and its completion, on both
 * databases: the attempt is written on the operation's own row by both. A repeat of a key the
 * same runtime completed is answered from memory, with no statement (issue 39's replay cache); on
 * PostgreSQL every other answer that runs nothing is the claim's read alone. Those answers still
 * reach the attempt log, in batches written by the store's own thread, counted apart.
 */
class RoundTripTest {

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();

    @OnBothDatabases
    void statementsPerOutcome(TestDatabase db) throws Exception {
        CountingDataSource counting = new CountingDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", counting).build());
        runtime.call(TOOL, "warm-up", Map.of(), String.class, () -> "schema is ready now");

        int before = counting.statementsOnThisThread();
        runtime.call(TOOL, "k", Map.of("a", 1), String.class, () -> "fresh");
        int fresh = counting.statementsOnThisThread() - before;

        // The JVM that completed the key answers its repeats from memory (issue 39's replay cache).
        before = counting.statementsOnThisThread();
        runtime.call(TOOL, "k", Map.of("a", 1), String.class, () -> "never");
        int hotReplay = counting.statementsOnThisThread() - before;

        before = counting.statementsOnThisThread();
        assertThatThrownBy(() -> runtime.call(TOOL, "k", Map.of("a", 2), String.class, () -> "never"))
                .isInstanceOf(PayloadConflictException.class);
        int hotConflict = counting.statementsOnThisThread() - before;

        // Another runtime (another JVM) has not seen the keys: its claim reads the record (and
        // then keeps it, so each key is asked once).
        runtime.call(TOOL, "c", Map.of("a", 1), String.class, () -> "fresh");
        CountingDataSource other = new CountingDataSource(db);
        IdempotentRuntime cold = db.track(IdempotentRuntime.builder().store("default", other).build());
        cold.call(TOOL, "warm-up", Map.of(), String.class, () -> "never");
        before = other.statementsOnThisThread();
        cold.call(TOOL, "k", Map.of("a", 1), String.class, () -> "never");
        int replay = other.statementsOnThisThread() - before;

        before = other.statementsOnThisThread();
        assertThatThrownBy(() -> cold.call(TOOL, "c", Map.of("a", 3), String.class, () -> "never"))
                .isInstanceOf(PayloadConflictException.class);
        int conflict = other.statementsOnThisThread() - before;

        Set<Thread> callers = ConcurrentHashMap.newKeySet();
        callers.add(Thread.currentThread());
        int inProgress = inProgressAnswer(runtime, counting, callers);

        assertThat(fresh).isEqualTo(2);
        assertThat(hotReplay).isZero();
        assertThat(hotConflict).isZero();
        if (db.kind() == Database.POSTGRESQL) {
            assertThat(replay).isEqualTo(1);
            assertThat(conflict).isEqualTo(1);
            assertThat(inProgress).isEqualTo(1);
        } else {
            // The claim of an existing key is an INSERT that H2's primary key refuses, then a SELECT.
            assertThat(replay).isEqualTo(2);
            assertThat(conflict).isEqualTo(2);
            assertThat(inProgress).isEqualTo(2);
        }
        // Every call is in the attempt log all the same, those answered from memory too.
        assertThat(db.attemptOutcomes("k")).containsExactly("COMPLETED", "REPLAYED", "PAYLOAD_CONFLICT", "REPLAYED");
        assertThat(db.attemptOutcomes("c")).containsExactly("COMPLETED", "PAYLOAD_CONFLICT");
        assertThat(db.attemptOutcomes("busy")).containsExactly("COMPLETED", "IN_PROGRESS");
        // The answers were written by the store's own thread, in batches: at most one statement each.
        assertThat(counting.statementsOutside(callers)).isBetween(1, 4);
    }

    /** The cost of an "in progress" answer while another thread's body holds the lease. */
    private static int inProgressAnswer(IdempotentRuntime runtime, CountingDataSource counting, Set<Thread> callers)
            throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ToolPolicy slow = Policies.downstreamKey("refund", Retry.SAFE).lease(Duration.ofMinutes(5)).build();
        CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> runtime.call(slow, "busy", Map.of(),
                String.class, () -> {
                    callers.add(Thread.currentThread());
                    running.countDown();
                    try {
                        assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return "done";
                }));
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
        int before = counting.statementsOnThisThread();
        assertThatThrownBy(() -> runtime.call(slow, "busy", Map.of(), String.class, () -> "never"))
                .isInstanceOf(OperationInProgressException.class);
        int cost = counting.statementsOnThisThread() - before;
        release.countDown();
        assertThat(holder.get(30, TimeUnit.SECONDS)).isEqualTo("done");
        return cost;
    }
}
