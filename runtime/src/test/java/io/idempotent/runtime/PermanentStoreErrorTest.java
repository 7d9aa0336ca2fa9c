package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;

/**
 * A value the store can never take (longer than its column, against a constraint) is a
 * permanent error, not an unavailable store: the caller is told not to retry, and the body does
 * not run. Lengths are checked before any SQL, against the columns of the migration.
 */
class PermanentStoreErrorTest {

    private static final String KEY = "refund:invoice_842:approved_17";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    @OnBothDatabases
    void aToolNameLongerThanItsColumnIsRefusedBeforeThePolicyExists(TestDatabase db) {
        // Refused when the policy is built (as the processor refuses it at build time), so no call
        // of the runtime can ever carry it.
        FakeProvider provider = new FakeProvider();
        assertThatThrownBy(() -> db.runtime().call(Policies.downstreamKey("t".repeat(201), Retry.SAFE).build(), KEY,
                PAYLOAD, String.class, () -> provider.apply("refund")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tool name")
                .hasMessageContaining("200");
        assertThat(provider.invocations()).isZero();
        assertThat(db.operationRows()).isZero();
    }

    @OnBothDatabases
    void aDownstreamIdLongerThanItsColumnIsRefusedAndTheEffectDoesNotStart(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy tool = Policies.marked("notify", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();

        Throwable refused = catchThrowable(() -> runtime.call(tool, KEY, PAYLOAD, String.class, () -> {
            OperationContext.current().effectStarting("d".repeat(513));
            return provider.apply("notify");
        }));

        assertPermanent(refused);
        assertThat(refused).hasMessageContaining("downstream request id");
        assertThat(provider.invocations()).isZero();
        // The boundary was never passed: provably nothing happened.
        assertThat(db.status(KEY)).isEqualTo("failed_safe");
    }

    @OnBothDatabases
    void anOperatorNameLongerThanItsColumnIsRefusedAndTheOperationStaysForAPerson(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy tool = Policies.manualReview("deploy", Retry.SAFE).build();
        catchThrowable(() -> runtime.call(tool, KEY, PAYLOAD, String.class, () -> {
            throw new IllegalStateException("timed out after the request was sent");
        }));
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");

        Throwable refused = catchThrowable(() -> runtime.operations().settleNotApplied("default", "deploy", KEY,
                "checked the provider", "o".repeat(201)));

        assertPermanent(refused);
        assertThat(refused).hasMessageContaining("operator");
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
    }

    @OnBothDatabases
    void aConstraintViolationIsPermanentAndTheBodyDoesNotRun(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy tool = Policies.downstreamKey("refund", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();
        runtime.call(tool, "refund:first", PAYLOAD, String.class, () -> provider.apply("first"));
        // A rule of the application's DBA that the runtime knows nothing of.
        db.update("ALTER TABLE tool_operations ADD CONSTRAINT no_forbidden_keys"
                + " CHECK (operation_key NOT LIKE 'forbidden:%')");

        Throwable refused = catchThrowable(() -> runtime.call(tool, "forbidden:1", PAYLOAD, String.class,
                () -> provider.apply("forbidden")));

        assertPermanent(refused);
        assertThat(refused).hasMessageContaining("forbidden:1").hasMessageContaining("SQLState 23")
                .hasMessageContaining("the body did not run");
        assertThat(provider.invocations()).isEqualTo(1);
    }

    private static void assertPermanent(Throwable refused) {
        assertThat(refused).isInstanceOf(ValueRejectedException.class);
        assertThat(((IdempotencyException) refused).retryable()).as("retryable").isFalse();
    }
}
