package io.idempotent.examples.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.examples.tools.LargeRefundTools;
import io.idempotent.examples.tools.Refund;
import io.idempotent.examples.tools.RefundTools;
import io.idempotent.runtime.ApprovalDeniedException;
import io.idempotent.runtime.ApprovalPendingException;
import io.idempotent.runtime.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The refund desk of docs/approvals.md decides, not the model: the amount against the limit picks
 * the tool, inside the ticket's step, and the approval answers become what the user is told. The
 * tools here are stand-ins that record each call (the approval flow itself is the runtime's, tested
 * there); no agent is attached, so they run as the plain methods they override.
 */
class RefundDeskTest {

    private final List<String> calls = new ArrayList<>();
    private Supplier<RuntimeException> largeRefundAnswer = () -> null;

    private final RefundDesk desk = new RefundDesk(new RefundTools(null) {
        @Override
        public Refund issueRefund(String invoiceId, long amountCents, String traceId) {
            calls.add("issueRefund " + amountCents + " in " + Step.currentKey().orElse("no step"));
            return new Refund("re_small", invoiceId, amountCents);
        }
    }, new LargeRefundTools(null) {
        @Override
        public Refund issueLargeRefund(String invoiceId, long amountCents, String traceId) {
            calls.add("issueLargeRefund " + amountCents + " in " + Step.currentKey().orElse("no step"));
            RuntimeException answer = largeRefundAnswer.get();
            if (answer != null) {
                throw answer;
            }
            return new Refund("re_large", invoiceId, amountCents);
        }
    });

    @Test
    void aRefundUpToTheLimitRunsTheToolWithoutApproval() {
        String told = desk.refund("T-1042", "invoice_842", RefundDesk.APPROVAL_LIMIT_CENTS, "trace-1");

        assertThat(calls).containsExactly("issueRefund 50000 in ticket-T-1042:refund");
        assertThat(told).isEqualTo("Refund re_small issued: 50000 cents on invoice_842");
        assertThat(Step.currentKey()).isEmpty();
    }

    @Test
    void aRefundAboveTheLimitAsksForApprovalAndTellsTheUserItWaits() {
        largeRefundAnswer = () -> new ApprovalPendingException("issue_large_refund",
                "refund:invoice_842:ticket-T-1042:refund", "the operation awaits a person's approval");

        String told = desk.refund("T-1042", "invoice_842", 120_000, "trace-1");

        assertThat(calls).containsExactly("issueLargeRefund 120000 in ticket-T-1042:refund");
        assertThat(told).isEqualTo("A refund of 120000 cents needs a person's approval: it is issued once approved");
    }

    @Test
    void anApprovedRefundAboveTheLimitIsIssuedByTheApprovalTool() {
        String told = desk.refund("T-1042", "invoice_842", RefundDesk.APPROVAL_LIMIT_CENTS + 1, "trace-1");

        assertThat(calls).containsExactly("issueLargeRefund 50001 in ticket-T-1042:refund");
        assertThat(told).isEqualTo("Refund re_large issued: 50001 cents on invoice_842");
    }

    @Test
    void aDenialIsToldAsADeclineAndNoOtherToolIsTried() {
        largeRefundAnswer = () -> new ApprovalDeniedException("issue_large_refund",
                "refund:invoice_842:ticket-T-1042:refund", "an operator denied the operation");

        String told = desk.refund("T-1042", "invoice_842", 120_000, "trace-1");

        assertThat(calls).containsExactly("issueLargeRefund 120000 in ticket-T-1042:refund");
        assertThat(told).isEqualTo("A person declined this refund: it will not be issued");
    }
}
