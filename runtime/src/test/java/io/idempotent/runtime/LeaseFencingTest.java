package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.Invocation;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FencingProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.idempotent.runtime.testing.Workers;
import java.time.Duration;
import java.util.Map;

/**
 * What a lease can and cannot do about a worker that stalls past it (a long GC pause, a frozen
 * VM) while another attempt goes ahead: the configurations that docs/runtime.md calls immune, and
 * the documented limit of the one that is not.
 */
class LeaseFencingTest {

    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final String KEY = "refund:invoice_842:approved_17";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    /**
     * A worker that stalls inside the body: a process frozen as a whole, so its heartbeat stalls
     * too (here: every heartbeat statement of its runtime hangs until the test ends).
     */
    private static Invocation.Execution stalledWorker(TestDatabase db, ToolPolicy policy) {
        FaultyDataSource frozen = new FaultyDataSource(db);
        frozen.stallStatements("UPDATE tool_operations SET lease_until = ", Integer.MAX_VALUE);
        IdempotentRuntime worker = IdempotentRuntime.builder().store("default", frozen).build();
        db.track(worker);
        db.onCleanUp(frozen::releaseStalled);
        return Workers.enterBody(worker, policy, KEY, PAYLOAD);
    }

    @OnBothDatabases
    void theDocumentedLimitAStalledWorkerOnAReconcilerOnlyToolCanStillSendAfterNotApplied(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy refund = ToolPolicy.builder("refund").keyTemplate("refund:{invoiceId}").downstreamKey(false)
                .retry(Retry.SAFE).lease(LEASE)
                .reconciler(() -> op -> provider.effects() == 0 ? Reconciliation.notApplied("no refund found")
                        : Reconciliation.applied("found"), "ProviderSearch").build();

        Invocation.Execution stalled = stalledWorker(db, refund);
        db.awaitLeaseExpired(KEY);
        // Another call finds the lease expired; the reconciler truthfully finds no refund yet.
        assertThat(runtime.call(refund, KEY, PAYLOAD, String.class, () -> provider.apply("refund")))
                .isEqualTo("done:refund");
        // The stalled worker wakes up and sends: nothing in the local row can stop it.
        provider.apply("refund");
        assertThatThrownBy(() -> stalled.succeeded("done:refund")).isInstanceOf(LeaseLostException.class);

        assertThat(provider.effects()).as("the limit: two refunds").isEqualTo(2);
    }

    @OnBothDatabases
    void aDownstreamKeyIsImmuneTheStalledWorkersSendIsDeduplicated(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.UNCERTAIN).lease(LEASE).build();

        Invocation.Execution stalled = stalledWorker(db, refund);
        db.awaitLeaseExpired(KEY);
        assertThat(runtime.call(refund, KEY, PAYLOAD, String.class, () -> provider.apply(KEY, "refund")))
                .isEqualTo("done:refund");
        provider.apply(stalled.context().key(), "refund");
        assertThatThrownBy(() -> stalled.succeeded("done:refund")).isInstanceOf(LeaseLostException.class);

        assertThat(provider.invocations()).isEqualTo(2);
        assertThat(provider.effects()).isEqualTo(1);
    }

    @OnBothDatabases
    void aMarkedBoundaryWithAFencingAwareDownstreamIsImmune(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FencingProvider provider = new FencingProvider();
        ToolPolicy refund = Policies.marked("refund", Retry.SAFE).lease(LEASE)
                .reconciler(() -> op -> provider.effects() == 0 ? Reconciliation.notApplied("no refund found")
                        : Reconciliation.applied("found"), "ProviderSearch").build();

        // The worker passes its effect boundary, then stalls before its request leaves.
        Invocation.Execution stalled = stalledWorker(db, refund);
        stalled.context().effectStarting("refund-req-1");
        long staleToken = stalled.context().leaseToken();
        db.awaitLeaseExpired(KEY);

        String result = runtime.call(refund, KEY, PAYLOAD, String.class, () -> {
            OperationContext op = OperationContext.current();
            op.effectStarting("refund-req-2");
            return provider.apply(op.key(), op.leaseToken(), "refund");
        });
        assertThat(result).isEqualTo("done:refund");
        // The stalled worker's request carries its old token: the downstream refuses it.
        assertThatThrownBy(() -> provider.apply(KEY, staleToken, "refund")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stale fencing token");

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.refused()).isEqualTo(1);
        stalled.abandon();
    }

    @OnBothDatabases
    void aMarkedBoundaryStopsAWorkerThatStalledBeforeTheMark(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy notify = Policies.marked("notify", Retry.SAFE).lease(LEASE).build();

        Invocation.Execution stalled = stalledWorker(db, notify);
        db.awaitLeaseExpired(KEY);
        assertThat(runtime.call(notify, KEY, PAYLOAD, String.class, () -> {
            OperationContext.current().effectStarting("mail-2");
            return provider.apply("mail");
        })).isEqualTo("done:mail");

        assertThatThrownBy(() -> stalled.context().effectStarting("mail-1")).isInstanceOf(LeaseLostException.class);
        assertThat(provider.effects()).isEqualTo(1);
        stalled.abandon();
    }
}
