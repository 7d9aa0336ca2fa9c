package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An operation is identified by its tool and its key together: two tools whose keys render the
 * same text never share a record, a result or a reconciler.
 */
class OperationIdentityTest {

    private static final String KEY = "order:42";
    private static final Map<String, Object> PAYLOAD = Map.of("orderId", "42");

    private static ToolPolicy tool(String name, Reconciler<?> reconciler) {
        return ToolPolicy.builder(name).keyTemplate("order:{orderId}").downstreamKey(false).retry(Retry.SAFE)
                .reconciler(() -> reconciler, name + "Reconciler").build();
    }

    @OnBothDatabases
    void aSecondToolWithTheSameKeyRunsItsOwnBody(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        AtomicInteger shipped = new AtomicInteger();
        AtomicInteger refunded = new AtomicInteger();
        ToolPolicy ship = tool("ship_order", op -> Reconciliation.unknown("not asked"));
        ToolPolicy refund = tool("refund_order", op -> Reconciliation.unknown("not asked"));

        String first = runtime.call(ship, KEY, PAYLOAD, String.class, () -> "shipped#" + shipped.incrementAndGet());
        String second = runtime.call(refund, KEY, PAYLOAD, String.class,
                () -> "refunded#" + refunded.incrementAndGet());

        assertThat(first).isEqualTo("shipped#1");
        assertThat(second).isEqualTo("refunded#1");
        assertThat(refunded).hasValue(1);
        // Each tool's repeat replays its own result.
        assertThat(runtime.call(ship, KEY, PAYLOAD, String.class, () -> "never")).isEqualTo("shipped#1");
        assertThat(runtime.call(refund, KEY, PAYLOAD, String.class, () -> "never")).isEqualTo("refunded#1");
        assertThat(shipped).hasValue(1);
        assertThat(refunded).hasValue(1);
        assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ?", KEY)).isEqualTo(2);
        assertThat(db.queryString("SELECT result_json FROM tool_operations WHERE tool = ? AND operation_key = ?",
                "refund_order", KEY)).contains("refunded#1");
        db.flushAttemptLogs();
        assertThat(db.queryLong("SELECT count(*) FROM tool_operation_attempts WHERE tool = ? AND operation_key = ?",
                "refund_order", KEY)).isEqualTo(2);
    }

    @OnBothDatabases
    void aReconcilerNeverJudgesAnotherToolsRow(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        List<OperationRecord> seenByB = new CopyOnWriteArrayList<>();
        ToolPolicy a = tool("charge_order", op -> Reconciliation.unknown("tool A's reconciler cannot tell"));
        ToolPolicy b = tool("notify_order", op -> {
            seenByB.add(op);
            return Reconciliation.applied("judged by B");
        });
        assertThatThrownBy(() -> runtime.call(a, KEY, PAYLOAD, String.class, () -> {
            throw new IllegalStateException("reply lost after the charge");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(db.queryString("SELECT status FROM tool_operations WHERE tool = ? AND operation_key = ?",
                "charge_order", KEY)).isEqualTo("needs_reconciliation");

        AtomicInteger notified = new AtomicInteger();
        String result = runtime.call(b, KEY, PAYLOAD, String.class, () -> "notified#" + notified.incrementAndGet());

        assertThat(result).isEqualTo("notified#1");
        assertThat(seenByB).isEmpty();
        assertThat(db.queryString("SELECT status FROM tool_operations WHERE tool = ? AND operation_key = ?",
                "charge_order", KEY)).isEqualTo("needs_reconciliation");
        assertThat(db.queryString("SELECT status FROM tool_operations WHERE tool = ? AND operation_key = ?",
                "notify_order", KEY)).isEqualTo("completed");
        // Tool A's row is still A's to reconcile: its own reconciler is asked, and says it cannot tell.
        assertThatThrownBy(() -> runtime.call(a, KEY, PAYLOAD, String.class, () -> "never"))
                .isInstanceOf(NeedsReconciliationException.class);
        assertThat(seenByB).isEmpty();
    }

    @OnBothDatabases
    void theOperatorNamesTheToolAndTheKey(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        List<OperationRecord> seenByA = new CopyOnWriteArrayList<>();
        ToolPolicy a = tool("charge_order", op -> {
            seenByA.add(op);
            return Reconciliation.unknown("cannot tell");
        });
        ToolPolicy b = tool("notify_order", op -> Reconciliation.unknown("not asked"));
        assertThatThrownBy(() -> runtime.call(a, KEY, PAYLOAD, String.class, () -> {
            throw new IllegalStateException("reply lost after the charge");
        })).isInstanceOf(IllegalStateException.class);
        runtime.call(b, KEY, PAYLOAD, String.class, () -> "notified");
        assertThatThrownBy(() -> runtime.call(a, KEY, PAYLOAD, String.class, () -> "never"))
                .isInstanceOf(NeedsReconciliationException.class);

        assertThat(seenByA).singleElement().extracting(OperationRecord::tool).isEqualTo("charge_order");
        OperationRecord charge = runtime.operations().find("charge_order", KEY).orElseThrow();
        OperationRecord notify = runtime.operations().find("default", "notify_order", KEY).orElseThrow();
        assertThat(charge.status()).isEqualTo(OperationStatus.NEEDS_RECONCILIATION);
        assertThat(charge.attemptLog()).extracting(AttemptRecord::outcome).containsExactly(
                AttemptOutcome.NEEDS_RECONCILIATION, AttemptOutcome.RECONCILED_UNKNOWN);
        assertThat(notify.status()).isEqualTo(OperationStatus.COMPLETED);
        assertThat(notify.attemptLog()).extracting(AttemptRecord::outcome).containsExactly(AttemptOutcome.COMPLETED);
        assertThat(runtime.operations().find("other_tool", KEY)).isEmpty();
        assertThat(runtime.operations().awaitingReconciliation("default", 10)).extracting(OperationRecord::tool)
                .containsExactly("charge_order");

        // Settling one tool's operation leaves the other tool's alone.
        assertThatThrownBy(() -> runtime.operations().settleApplied("default", "notify_order", KEY, "x", "alice"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("completed");
        runtime.operations().settleApplied("default", "charge_order", KEY, "charged (checked by hand)", "alice");
        assertThat(runtime.call(a, KEY, PAYLOAD, String.class, () -> "never")).isEqualTo("charged (checked by hand)");
        assertThat(runtime.call(b, KEY, PAYLOAD, String.class, () -> "never")).isEqualTo("notified");
    }
}
