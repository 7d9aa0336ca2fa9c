package io.idempotent.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.OperationStatus;
import io.idempotent.test.tools.ApprovalTools;
import io.idempotent.test.tools.PaymentClient;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kit used as a user uses it, on tools a person approves first ({@code approval =
 * Approval.REQUIRED}): each of the four tests has its call approved first and then keeps its
 * contract under every fault, and the approval gate's own cases pass. The refund runs on both
 * databases; its asynchronous twin (the pending answer arrives as the future's failure) and the mass
 * mail (a real reconciler after the approval) on H2 only.
 */
class ApprovalToolsContractTest {

    private static final PaymentClient NO_PAYMENTS = (invoice, cents, key) -> {
        throw new AssertionError("this tool does not refund");
    };

    @RegisterExtension
    static final ToolContract<ApprovalTools> LARGE_REFUND = ToolContract.forTool(ApprovalTools.class, "largeRefund")
            .arguments("invoice_842", 250_000L)
            .changedArguments("invoice_842", 990_000L)
            .onProviderDouble(ProviderDouble.Mode.DEDUPLICATING, provider -> new ApprovalTools(
                    (invoice, cents, key) -> provider.request(key, () -> "re_" + invoice + "_" + cents), provider));

    @RegisterExtension
    static final ToolContract<ApprovalTools> LARGE_REFUND_LATER = ToolContract.forTool(ApprovalTools.class,
            "largeRefundLater")
            .arguments("invoice_842", 250_000L)
            .changedArguments("invoice_842", 990_000L)
            .databases(KitDatabase.H2)
            .onProviderDouble(ProviderDouble.Mode.DEDUPLICATING, provider -> new ApprovalTools(
                    (invoice, cents, key) -> provider.request(key, () -> "re_" + invoice + "_" + cents), provider));

    @RegisterExtension
    static final ToolContract<ApprovalTools> MASS_MAIL = ToolContract.forTool(ApprovalTools.class, "massMail")
            .arguments("list_3", "Our prices change on 1 May")
            .changedArguments("list_3", "Our prices change on 1 June")
            .databases(KitDatabase.H2)
            .onProviderDouble(ProviderDouble.Mode.NOT_DEDUPLICATING, mail -> new ApprovalTools(NO_PAYMENTS, mail));

    @TestFactory
    Stream<DynamicNode> aLargeRefundApprovedFirstOnADeduplicatingProvider() {
        return LARGE_REFUND.tests();
    }

    @TestFactory
    Stream<DynamicNode> anAsynchronousLargeRefundApprovedFirst() {
        return LARGE_REFUND_LATER.tests();
    }

    @TestFactory
    Stream<DynamicNode> aMassMailApprovedFirstWithARealReconciler() {
        return MASS_MAIL.tests();
    }

    @Test
    void eachOfTheFourTestsRunsOnTheApprovedOperationAndTheGatesOwnCasesAreAdded() {
        ToolContract<ApprovalTools> contract = ToolContract.forTool(ApprovalTools.class, "largeRefund")
                .arguments("invoice_842", 250_000L)
                .changedArguments("invoice_842", 990_000L)
                .databases(KitDatabase.H2)
                .onProviderDouble(ProviderDouble.Mode.DEDUPLICATING, provider -> new ApprovalTools(
                        (invoice, cents, key) -> provider.request(key, () -> "re_" + invoice + "_" + cents), provider));

        List<CaseResult> results = contract.runAll();

        assertThat(results).hasSize(16);
        assertThat(results).filteredOn(r -> !r.passed()).extracting(CaseResult::failureMessage).isEmpty();
        assertThat(results).extracting(CaseResult::test).containsOnly(FailureTest.values());
        // The four tests ran on the approved operation: the body ran, the faults struck the approved call.
        assertThat(results).filteredOn(r -> !r.test().approvalOnly())
                .allSatisfy(r -> assertThat(r.expected()).startsWith("once approved: "))
                .allSatisfy(r -> assertThat(r.executions()).isPositive())
                .allSatisfy(r -> assertThat(r.effects()).isEqualTo(1))
                .allSatisfy(r -> assertThat(r.finalStatus()).isIn(OperationStatus.COMPLETED,
                        OperationStatus.NEEDS_RECONCILIATION));
        assertThat(only(results, FailureTest.APPROVAL_PENDING)).satisfies(r -> {
            assertThat(r.finalStatus()).isEqualTo(OperationStatus.AWAITING_APPROVAL);
            assertThat(r.executions()).isZero();
            assertThat(r.requests()).isZero();
        });
        assertThat(only(results, FailureTest.APPROVED_THEN_CHANGED_PAYLOAD)).satisfies(r -> {
            assertThat(r.finalStatus()).isEqualTo(OperationStatus.COMPLETED);
            assertThat(r.executions()).isEqualTo(1);
            assertThat(r.effects()).isEqualTo(1);
            assertThat(r.replays()).isEqualTo(1);
        });
        assertThat(only(results, FailureTest.APPROVAL_DENIED)).satisfies(r -> {
            assertThat(r.finalStatus()).isEqualTo(OperationStatus.DENIED);
            assertThat(r.executions()).isZero();
            assertThat(r.requests()).isZero();
        });
        assertThat(contract.report()).contains("approval = REQUIRED (granted by contract-test before each of tests"
                + " 1-4, valid PT1H)").contains("| 5 approval pending ").contains("| 7 approval denied ");
    }

    private static CaseResult only(List<CaseResult> results, FailureTest test) {
        List<CaseResult> of = results.stream().filter(r -> r.test() == test).toList();
        assertThat(of).hasSize(1);
        return of.get(0);
    }
}
