package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.SimulatedWorkerDeath;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;

/**
 * The contract test kit's hook: a body that throws {@link SimulatedWorkerDeath} leaves its
 * operation exactly as a worker killed at that point would (in progress, effect begun, heartbeat
 * stopped), so the next caller meets it only after the lease expired, as after a real crash.
 */
class SimulatedWorkerDeathTest {

    private static final String KEY = "refund:invoice_842:approved_17";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    @OnBothDatabases
    void aSimulatedDeathLeavesTheOperationInProgressUntilItsLeaseExpires(TestDatabase db) {
        ToolPolicy policy = Policies.manualReview("notify", Retry.SAFE).lease(Duration.ofSeconds(1)).build();
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();

        assertThatThrownBy(() -> runtime.call(policy, KEY, PAYLOAD, String.class, () -> {
            provider.apply("notify");
            throw new SimulatedWorkerDeath("test");
        })).isInstanceOf(SimulatedWorkerDeath.class);

        // Nothing was recorded: the row is as the dead worker left it, its attempt still running.
        assertThat(db.status(KEY)).isEqualTo("in_progress");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("RUNNING");
        db.awaitLeaseExpired(KEY);
        assertThatThrownBy(() -> runtime.call(policy, KEY, PAYLOAD, String.class, () -> provider.apply("again")))
                .isInstanceOf(NeedsReconciliationException.class);
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
        assertThat(provider.invocations()).isEqualTo(1);
    }
}
