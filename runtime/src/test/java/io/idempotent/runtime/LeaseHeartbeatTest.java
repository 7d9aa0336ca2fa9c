package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.Invocation;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.idempotent.runtime.testing.Workers;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The heartbeat keeps every live attempt's lease, whatever one stuck beat does, until the
 * attempt's final write has finished; the effect boundary renews the lease to a full one.
 */
class LeaseHeartbeatTest {

    private static final String HEARTBEAT = "UPDATE tool_operations SET lease_until = ";
    private static final String COMPLETION = "SET status = 'completed', result_json = ?, error_json = NULL";
    /**
     * Short enough that four leases pass quickly, long enough (a beat every 400 ms) that a busy
     * machine's scheduling pauses cannot make a healthy heartbeat miss a whole lease.
     */
    private static final Duration LEASE = Duration.ofMillis(1200);
    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");

    private static ToolPolicy tool(String name, Duration lease) {
        return Policies.downstreamKey(name, Retry.SAFE).lease(lease).build();
    }

    private static IdempotentRuntime runtime(TestDatabase db, FaultyDataSource faulty) {
        return db.track(IdempotentRuntime.builder().store("default", faulty).build());
    }

    @OnBothDatabases
    void oneStuckBeatDoesNotLetAnotherLiveLeaseExpire(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = runtime(db, faulty);
        faulty.stallStatements(HEARTBEAT, 1);
        try {
            Invocation.Execution stuck = Workers.enterBody(runtime, tool("a", LEASE), "k:a", PAYLOAD);
            TestDatabase.await(() -> faulty.stalledNow() == 1, Duration.ofSeconds(20), "a beat of k:a to hang");

            Invocation.Execution live = Workers.enterBody(runtime, tool("b", LEASE), "k:b", PAYLOAD);
            db.awaitClaimOlderThan("k:b", 4 * LEASE.toMillis());

            assertThat(db.leaseExpired("k:b")).as("the live attempt's lease").isFalse();
            assertThat(live.succeeded("b done")).isEqualTo("b done");
            faulty.releaseStalled();
            stuck.succeeded("a done");
        } finally {
            faulty.releaseStalled();
        }
        assertThat(db.status("k:a")).isEqualTo("completed");
        assertThat(db.status("k:b")).isEqualTo("completed");
    }

    @OnBothDatabases
    void theLeaseIsKeptUntilTheFinalWriteHasFinished(TestDatabase db) throws Exception {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = runtime(db, faulty);
        faulty.stallStatements(COMPLETION, 1);
        CompletableFuture<String> call;
        try {
            call = CompletableFuture.supplyAsync(() -> runtime.call(tool("a", LEASE), "k:slow-write", PAYLOAD,
                    String.class, () -> "done"));
            TestDatabase.await(() -> faulty.stalledNow() == 1, Duration.ofSeconds(20), "the completion to hang");
            db.awaitClaimOlderThan("k:slow-write", 4 * LEASE.toMillis());

            assertThat(db.leaseExpired("k:slow-write")).as("the lease while the completion is written").isFalse();
        } finally {
            faulty.releaseStalled();
        }
        assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(db.status("k:slow-write")).isEqualTo("completed");
    }

    @OnBothDatabases
    void theEffectBoundaryLeavesTheAttemptAFullLease(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = runtime(db, faulty);
        Duration lease = Duration.ofMillis(1500);
        faulty.stallStatements(HEARTBEAT, Integer.MAX_VALUE);
        try {
            Invocation.Execution attempt = Workers.enterBody(runtime,
                    Policies.marked("notify", Retry.SAFE).lease(lease).build(), "k:mark", PAYLOAD);
            // Without beats, the lease runs down until less than a third of it is left.
            TestDatabase.await(() -> db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ?"
                    + " AND lease_until < " + db.nowPlusMillis(500), "k:mark") == 1, Duration.ofSeconds(20),
                    "the lease to run down");

            attempt.context().effectStarting("mail-1");

            assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ?"
                    + " AND lease_until > " + db.nowPlusMillis(1000), "k:mark")).as("a full lease after the mark")
                    .isEqualTo(1);
            faulty.releaseStalled();
            attempt.succeeded("sent");
        } finally {
            faulty.releaseStalled();
        }
    }

    @OnBothDatabases
    void theBodySeesItsFencingTokenAndHowLongItsLeaseLasts(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Duration lease = Duration.ofSeconds(30);
        runtime.call(tool("a", lease), "k:token", PAYLOAD, String.class, () -> {
            OperationContext op = OperationContext.current();
            assertThat(op.leaseToken()).isEqualTo(db.queryLong(
                    "SELECT lease_token FROM tool_operations WHERE operation_key = ?", "k:token"));
            assertThat(op.leaseRemaining()).isPositive().isLessThanOrEqualTo(lease);
            return "ok";
        });
    }
}
