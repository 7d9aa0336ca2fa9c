package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.LeaseLostException;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.store.LeaseRenewal;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.idempotent.runtime.testing.Workers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Many leases renewed in one statement keep the fencing of one: only an attempt that still owns
 * its operation (same lease token, same attempt, lease not expired) is renewed, and each attempt
 * learns whether its own renewal held.
 */
class BatchedLeaseRenewalTest {

    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");

    private static ToolPolicy tool(Duration lease) {
        return Policies.downstreamKey("renewed", Retry.SAFE).lease(lease).build();
    }

    private static LeaseRenewal renewalOf(Invocation.Execution execution) {
        OperationContext c = execution.context();
        return new LeaseRenewal(c.tool(), c.key(), c.leaseToken(), c.attemptId());
    }

    @OnBothDatabases
    void oneStatementRenewsOnlyTheAttemptsThatStillOwnTheirOperations(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        OperationStore store = RuntimeAccess.engine(runtime).stores().get("default", null);
        ToolPolicy tool = tool(Duration.ofSeconds(30));
        List<LeaseRenewal> leases = new ArrayList<>();
        for (String key : List.of("k:live", "k:token-moved", "k:other-attempt", "k:expired")) {
            leases.add(renewalOf(Workers.enterBody(runtime, tool, key, PAYLOAD)));
        }
        db.update("UPDATE tool_operations SET lease_token = lease_token + 1 WHERE operation_key = 'k:token-moved'");
        db.update("UPDATE tool_operations SET attempt_id = 'another-attempt' WHERE operation_key = 'k:other-attempt'");
        db.update("UPDATE tool_operations SET lease_until = " + db.nowPlusMillis(-1000)
                + " WHERE operation_key = 'k:expired'");

        Set<LeaseRenewal> renewed = store.renewLeases(leases, Duration.ofMinutes(10));

        assertThat(renewed).containsExactly(leases.get(0));
        assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE lease_until > "
                + db.nowPlusMillis(Duration.ofMinutes(5).toMillis()))).as("leases extended to ten minutes").isEqualTo(1);
        assertThat(db.leaseExpired("k:expired")).as("an expired lease stays expired").isTrue();
    }

    @OnBothDatabases
    void moreKeysThanOneStatementTakesAreAllRenewed(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        OperationStore store = RuntimeAccess.engine(runtime).stores().get("default", null);
        ToolPolicy tool = tool(Duration.ofSeconds(30));
        List<LeaseRenewal> leases = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            leases.add(renewalOf(Workers.enterBody(runtime, tool, "k:" + i, PAYLOAD)));
        }

        assertThat(store.renewLeases(leases, Duration.ofMinutes(10))).hasSize(600);
        assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE lease_until > "
                + db.nowPlusMillis(Duration.ofMinutes(5).toMillis()))).isEqualTo(600);
    }

    @OnBothDatabases
    void anAttemptRenewedBesideOneThatLostItsLeaseLearnsItsOwnOutcome(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Duration lease = Duration.ofMillis(1200);
        Invocation.Execution kept = Workers.enterBody(runtime, tool(lease), "k:kept", PAYLOAD);
        Invocation.Execution lost = Workers.enterBody(runtime, tool(lease), "k:lost", PAYLOAD);
        db.update("UPDATE tool_operations SET lease_token = lease_token + 1 WHERE operation_key = 'k:lost'");

        TestDatabase.await(() -> lost.context().leaseRemaining().isZero(), Duration.ofSeconds(20),
                "the attempt whose token moved to learn it lost its lease");
        db.awaitClaimOlderThan("k:kept", 4 * lease.toMillis());

        assertThat(db.leaseExpired("k:kept")).as("the lease renewed in the same batches").isFalse();
        assertThat(kept.context().leaseRemaining()).isPositive();
        assertThatThrownBy(() -> lost.context().effectStarting("req-1")).isInstanceOf(LeaseLostException.class);
        assertThat(kept.succeeded("done")).isEqualTo("done");
        assertThat(db.status("k:kept")).isEqualTo("completed");
    }
}
