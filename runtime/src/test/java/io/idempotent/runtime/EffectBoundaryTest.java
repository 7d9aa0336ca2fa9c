package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.Invocation;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.idempotent.runtime.testing.Workers;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The effect boundary, fencing and leases, on H2 and PostgreSQL. */
class EffectBoundaryTest {

    private static final Map<String, Object> PAYLOAD = Map.of("id", "d_1");

    /** Thrown by a downstream to say the request was refused before anything changed. */
    static final class Declined extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Declined() {
            super("card declined");
        }
    }

    @OnBothDatabases
    void failureBeforeTheMarkedBoundaryIsRetriedSafelyAndExecutesOnce(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy deploy = Policies.marked("deploy", Retry.SAFE).build();
        String key = "deploy:svc:v42";

        assertThatThrownBy(() -> runtime.call(deploy, key, PAYLOAD, String.class, () -> {
            throw new IllegalStateException("config service unreachable");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(db.status(key)).isEqualTo("failed_safe");

        String result = runtime.call(deploy, key, PAYLOAD, String.class, () -> {
            OperationContext.current().effectStarting("deploy-req-1");
            return provider.apply("set target v42");
        });

        assertThat(result).isEqualTo("done:set target v42");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status(key)).isEqualTo("completed");
        assertThat(db.queryLong("SELECT attempts FROM tool_operations WHERE operation_key = ?", key)).isEqualTo(2);
        assertThat(db.queryString("SELECT downstream_id FROM tool_operations WHERE operation_key = ?", key))
                .isEqualTo("deploy-req-1");
        assertThat(db.attemptOutcomes(key)).containsExactly("FAILED_SAFE", "COMPLETED");
    }

    @OnBothDatabases
    void failureAfterTheMarkedBoundaryNeedsReconciliation(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy deploy = Policies.marked("deploy", Retry.SAFE).build();
        String key = "deploy:svc:v43";

        assertThatThrownBy(() -> runtime.call(deploy, key, PAYLOAD, String.class, () -> {
            OperationContext.current().effectStarting("deploy-req-2");
            throw new IllegalStateException("connection reset");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(db.status(key)).isEqualTo("needs_reconciliation");
    }

    @OnBothDatabases
    void notAppliedOnExceptionProvesNothingHappenedAndTheRetryRuns(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy charge = Policies.manualReview("charge", Retry.SAFE).notAppliedOn(List.of(Declined.class)).build();
        String key = "charge:order_1";

        assertThatThrownBy(() -> runtime.call(charge, key, PAYLOAD, String.class, () -> {
            throw new Declined();
        })).isInstanceOf(Declined.class);
        assertThat(db.status(key)).isEqualTo("failed_safe");

        assertThat(runtime.call(charge, key, PAYLOAD, String.class, () -> provider.apply("charge")))
                .isEqualTo("done:charge");
        assertThat(provider.effects()).isEqualTo(1);
    }

    @OnBothDatabases
    void attemptWhoseLeaseWasTakenOverCanNeitherPassTheBoundaryNorComplete(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy deploy = Policies.marked("deploy", Retry.SAFE).build();
        String key = "deploy:svc:v44";

        Invocation.Execution stale = Workers.enterBody(runtime, deploy, key, PAYLOAD);
        // The stale worker stalls (a long GC pause, a partition) past its lease.
        db.update("UPDATE tool_operations SET lease_until = lease_until - INTERVAL '1' HOUR WHERE operation_key = ?",
                key);

        String fresh = runtime.call(deploy, key, PAYLOAD, String.class, () -> {
            OperationContext.current().effectStarting("deploy-req-fresh");
            return provider.apply("set target v44");
        });
        assertThat(fresh).isEqualTo("done:set target v44");

        assertThatThrownBy(() -> stale.context().effectStarting("deploy-req-stale"))
                .isInstanceOf(LeaseLostException.class);
        assertThatThrownBy(() -> stale.succeeded("stale result")).isInstanceOf(LeaseLostException.class);

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status(key)).isEqualTo("completed");
        assertThat(db.queryString("SELECT result_json FROM tool_operations WHERE operation_key = ?", key))
                .isEqualTo("\"done:set target v44\"");
        assertThat(db.queryString("SELECT downstream_id FROM tool_operations WHERE operation_key = ?", key))
                .isEqualTo("deploy-req-fresh");
        assertThat(db.attemptOutcomes(key)).containsExactly("LEASE_LOST", "COMPLETED");
    }

    @OnBothDatabases
    void expiredAttemptThatMayHaveStartedItsEffectCannotCompleteOverTheReconciliation(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy email = Policies.manualReview("email", Retry.SAFE).build();
        String key = "email:user_9";

        Invocation.Execution stale = Workers.enterBody(runtime, email, key, PAYLOAD);
        db.update("UPDATE tool_operations SET lease_until = lease_until - INTERVAL '1' HOUR WHERE operation_key = ?",
                key);
        assertThatThrownBy(() -> runtime.call(email, key, PAYLOAD, String.class, () -> "second"))
                .isInstanceOf(NeedsReconciliationException.class);

        assertThatThrownBy(() -> stale.succeeded("late")).isInstanceOf(LeaseLostException.class);
        assertThat(db.status(key)).isEqualTo("needs_reconciliation");
    }

    @OnBothDatabases
    void heartbeatKeepsASlowBodysLease(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        // A beat every 400 ms: a busy machine's pauses cannot make a healthy heartbeat miss a lease.
        ToolPolicy slow = Policies.marked("slow", Retry.SAFE).lease(Duration.ofMillis(1200)).build();
        String key = "slow:1";

        String result = runtime.call(slow, key, PAYLOAD, String.class, () -> {
            // Run for more than three leases, by the database's clock, while others keep asking.
            TestDatabase.await(() -> db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ?"
                    + " AND created_at <= CURRENT_TIMESTAMP - INTERVAL '4' SECOND", key) == 1,
                    Duration.ofSeconds(20), "four seconds to pass");
            assertThat(db.leaseExpired(key)).isFalse();
            assertThatThrownBy(() -> runtime.call(slow, key, PAYLOAD, String.class, () -> "intruder"))
                    .isInstanceOf(OperationInProgressException.class);
            OperationContext.current().effectStarting("slow-req");
            return "slow result";
        });

        assertThat(result).isEqualTo("slow result");
        assertThat(db.attemptOutcomes(key)).containsExactly("COMPLETED", "IN_PROGRESS");
    }

    @OnBothDatabases
    void deadWorkersLeaseExpiresAndAnAttemptBeforeItsBoundaryIsTakenOver(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy deploy = Policies.marked("deploy", Retry.SAFE).lease(Duration.ofSeconds(1)).build();
        String key = "deploy:svc:v45";

        Invocation.Execution dead = Workers.enterBody(runtime, deploy, key, PAYLOAD);
        dead.abandon();
        assertThatThrownBy(() -> runtime.call(deploy, key, PAYLOAD, String.class, () -> "too early"))
                .isInstanceOf(OperationInProgressException.class);
        db.awaitLeaseExpired(key);

        String result = runtime.call(deploy, key, PAYLOAD, String.class, () -> {
            OperationContext.current().effectStarting("deploy-req-3");
            return provider.apply("set target v45");
        });

        assertThat(result).isEqualTo("done:set target v45");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.queryLong("SELECT attempts FROM tool_operations WHERE operation_key = ?", key)).isEqualTo(2);
        assertThat(db.queryLong("SELECT lease_token FROM tool_operations WHERE operation_key = ?", key)).isEqualTo(2);
    }

    @OnBothDatabases
    void contextIsOnlyAvailableInsideABody(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy deploy = Policies.marked("deploy", Retry.SAFE).build();
        assertThatThrownBy(OperationContext::current).isInstanceOf(IllegalStateException.class);
        String seen = runtime.call(deploy, "deploy:ctx", PAYLOAD, String.class, () -> {
            OperationContext op = OperationContext.current();
            return op.tool() + "|" + op.key() + "|" + op.attempt() + "|" + !op.attemptId().isEmpty();
        });
        assertThat(seen).isEqualTo("deploy|deploy:ctx|1|true");
        assertThatThrownBy(OperationContext::current).isInstanceOf(IllegalStateException.class);
    }
}
