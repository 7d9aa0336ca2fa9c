package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;

/**
 * A reconciler's (or an operator's) APPLIED result settles the operation only if it replays as the
 * tool's return type; anything else leaves the operation for a person and never re-runs the body.
 */
class ReconciledResultTest {

    record Refund(String refundId, long amountCents) {
    }

    /** A result Jackson cannot write: its getter throws. */
    static final class Unwritable {
        @JsonProperty
        String broken() {
            throw new IllegalStateException("cannot be written");
        }
    }

    private static final String KEY = "refund:invoice_842:approved_17";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    private static ToolPolicy refund(Reconciler<?> reconciler, Retry retry, boolean downstreamKey) {
        ToolPolicy.Builder b = downstreamKey ? Policies.downstreamKey("refund", retry)
                : ToolPolicy.builder("refund").keyTemplate("refund:{invoiceId}").downstreamKey(false).retry(retry);
        return b.reconciler(() -> reconciler, "TestReconciler").build();
    }

    private static void failAfterEffect(IdempotentRuntime runtime, ToolPolicy policy, FakeProvider provider) {
        assertThatThrownBy(() -> runtime.call(policy, KEY, PAYLOAD, Refund.class, () -> {
            provider.apply(KEY, "refund");
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);
    }

    @OnBothDatabases
    void aMapForARecordIsUnknownAndTheRowStaysForAPerson(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy policy = refund(op -> Reconciliation.applied(Map.of()), Retry.SAFE, false);
        failAfterEffect(runtime, policy, provider);

        assertThatThrownBy(() -> runtime.call(policy, KEY, PAYLOAD, Refund.class, () -> provider.apply("again")))
                .isInstanceOf(NeedsReconciliationException.class)
                .hasMessageContaining(Refund.class.getName());
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("NEEDS_RECONCILIATION", "RECONCILED_UNKNOWN");
        assertThat(provider.invocations()).isEqualTo(1);
        // The operator can still settle it, with a result that fits.
        runtime.operations().settleApplied("default", "refund", KEY, new Refund("re_1", 1250), Refund.class, "alice");
        assertThat(runtime.call(policy, KEY, PAYLOAD, Refund.class, () -> new Refund("never", 0)))
                .isEqualTo(new Refund("re_1", 1250));
    }

    @OnBothDatabases
    void nullForANonVoidToolIsUnknown(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy policy = refund(op -> Reconciliation.applied(null), Retry.SAFE, false);
        failAfterEffect(runtime, policy, provider);

        assertThatThrownBy(() -> runtime.call(policy, KEY, PAYLOAD, Refund.class, () -> provider.apply("again")))
                .isInstanceOf(NeedsReconciliationException.class).hasMessageContaining("null");
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
        assertThat(provider.invocations()).isEqualTo(1);
    }

    @OnBothDatabases
    void anAppliedResultThatCannotBeStoredIsUnknownNeverAReRunEvenWithADownstreamKey(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy policy = refund(op -> Reconciliation.applied(new Unwritable()), Retry.UNCERTAIN, true);
        failAfterEffect(runtime, policy, provider);

        assertThatThrownBy(() -> runtime.call(policy, KEY, PAYLOAD, Refund.class, () -> {
            provider.apply(KEY, "refund");
            return new Refund("re_2", 1250);
        })).isInstanceOf(NeedsReconciliationException.class);
        assertThat(provider.invocations()).isEqualTo(1);
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
    }

    @OnBothDatabases
    void theOperatorCannotSettleAResultThatDoesNotFitTheReturnType(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy policy = Policies.manualReview("refund", Retry.SAFE).build();
        failAfterEffect(runtime, policy, new FakeProvider());

        assertThatThrownBy(() -> runtime.operations().settleApplied("default", "refund", KEY,
                Map.of("id", "re_1"), Refund.class, "alice"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(Refund.class.getName());
        assertThatThrownBy(() -> runtime.operations().settleApplied("default", "refund", KEY, null, Refund.class,
                "alice")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null");
        // Without a type, the runtime checks against the type it saw the tool return in this JVM.
        assertThatThrownBy(() -> runtime.operations().settleApplied("default", "refund", KEY, Map.of(), "alice"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(Refund.class.getName());
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");

        runtime.operations().settleApplied("default", "refund", KEY, new Refund("re_1", 1250), "alice");
        assertThat(db.status(KEY)).isEqualTo("completed");
    }

    @OnBothDatabases
    void withoutATypeAndWithoutACallInThisJvmTheOperatorIsToldToPassTheType(TestDatabase db) {
        IdempotentRuntime first = db.runtime();
        failAfterEffect(first, Policies.manualReview("refund", Retry.SAFE).build(), new FakeProvider());
        IdempotentRuntime operatorConsole = db.runtime();

        assertThatThrownBy(() -> operatorConsole.operations().settleApplied("default", "refund", KEY,
                new Refund("re_1", 1250), "alice"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("resultType");
        operatorConsole.operations().settleApplied("default", "refund", KEY, new Refund("re_1", 1250), Refund.class,
                "alice");
        assertThat(db.status(KEY)).isEqualTo("completed");
    }
}
