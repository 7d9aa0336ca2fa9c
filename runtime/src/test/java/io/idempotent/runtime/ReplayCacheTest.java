package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.CountingDataSource;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store answers repeats of the keys it completed from memory (issue 39), with every answer in
 * the attempt log, never for another tool, and never once the record's retention is over: a
 * purge by another runtime (another JVM, the CLI) then finds the key fresh, and so does this one.
 */
class ReplayCacheTest {

    @OnBothDatabases
    void aCompletedKeyIsAnsweredFromMemoryOnlyWhileItsRecordIsKept(TestDatabase db) {
        ToolPolicy shortLived = Policies.downstreamKey("refund", Retry.SAFE).lease(Duration.ofSeconds(1))
                .retention(Duration.ofSeconds(1)).build();
        ToolPolicy otherTool = Policies.downstreamKey("notify", Retry.SAFE).build();
        CountingDataSource counting = new CountingDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", counting).build());
        AtomicInteger runs = new AtomicInteger();

        assertThat(runtime.call(shortLived, "k", Map.of("a", 1), String.class, () -> "run " + runs.incrementAndGet()))
                .isEqualTo("run 1");
        int before = counting.statementsOnThisThread();
        assertThat(runtime.call(shortLived, "k", Map.of("a", 1), String.class, () -> "run " + runs.incrementAndGet()))
                .isEqualTo("run 1");
        assertThat(counting.statementsOnThisThread() - before).as("statements of the repeat from memory").isZero();
        // The same key of another tool is another operation: claimed, and its body runs.
        assertThat(runtime.call(otherTool, "k", Map.of("a", 1), String.class, () -> "other tool")).isEqualTo(
                "other tool");
        // (Both tools' rows of the key; an answer from memory is dated by the database's clock as
        // last seen plus the time since, which may pass the other tool's claim by a claim's latency.)
        assertThat(db.attemptOutcomes("k")).containsExactlyInAnyOrder("COMPLETED", "REPLAYED", "COMPLETED");

        // Another runtime purges the record once its retention is over; this runtime's memory of
        // it ended no later, so the key is fresh here too.
        IdempotentRuntime operator = db.track(db.runtimeBuilder().build());
        TestDatabase.await(() -> operator.operations().purgeExpired("default") > 0, Duration.ofSeconds(30),
                "the record of k to be purged after its retention");
        assertThat(runtime.call(shortLived, "k", Map.of("a", 1), String.class, () -> "run " + runs.incrementAndGet()))
                .isEqualTo("run 2");
        assertThat(runs.get()).isEqualTo(2);
    }

    /**
     * A record deleted by hand: the runtime that completed it still answers from memory (what the
     * record said), while one built with {@code replayCache(0)} finds the key fresh and runs the body.
     */
    @OnBothDatabases
    void aRecordDeletedByHandIsAnsweredFromMemoryUnlessTheCacheIsOff(TestDatabase db) {
        ToolPolicy tool = Policies.downstreamKey("refund", Retry.SAFE).build();
        IdempotentRuntime cached = db.track(db.runtimeBuilder().build());
        IdempotentRuntime uncached = db.track(db.runtimeBuilder().replayCache(0).build());
        AtomicInteger runs = new AtomicInteger();
        assertThat(cached.call(tool, "kept", Map.of(), String.class, () -> "run " + runs.incrementAndGet()))
                .isEqualTo("run 1");
        assertThat(uncached.call(tool, "not-kept", Map.of(), String.class, () -> "run " + runs.incrementAndGet()))
                .isEqualTo("run 2");
        db.update("DELETE FROM tool_operations WHERE operation_key IN ('kept', 'not-kept')");

        assertThat(cached.call(tool, "kept", Map.of(), String.class, () -> "run " + runs.incrementAndGet()))
                .isEqualTo("run 1");
        assertThat(uncached.call(tool, "not-kept", Map.of(), String.class, () -> "run " + runs.incrementAndGet()))
                .isEqualTo("run 3");
    }
}
