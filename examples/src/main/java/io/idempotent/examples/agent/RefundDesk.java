package io.idempotent.examples.agent;

import io.idempotent.examples.tools.LargeRefundTools;
import io.idempotent.examples.tools.Refund;
import io.idempotent.examples.tools.RefundTools;
import io.idempotent.runtime.ApprovalDeniedException;
import io.idempotent.runtime.ApprovalPendingException;
import io.idempotent.runtime.Step;

/**
 * The workflow layer's handler of the model's "refund this invoice": deterministic code, not the
 * model, decides whether a person must approve, by comparing the amount with the desk's limit and
 * choosing the tool. The model is given one refund function; it never chooses between the two
 * tools, so it cannot skip the approval by calling the other one.
 */
public final class RefundDesk {

    /** Refunds above this amount (500.00) wait for a person's approval. */
    public static final long APPROVAL_LIMIT_CENTS = 50_000;

    private final RefundTools refunds;
    private final LargeRefundTools largeRefunds;

    /** A desk that refunds through {@code refunds}, and above the limit through {@code largeRefunds}. */
    public RefundDesk(RefundTools refunds, LargeRefundTools largeRefunds) {
        this.refunds = refunds;
        this.largeRefunds = largeRefunds;
    }

    /**
     * Refunds {@code amountCents} of {@code invoiceId} as the refund decision of support ticket
     * {@code ticketId} (one ticket, one refund: every repeat of this call is the same decision);
     * returns what to tell the user.
     */
    public String refund(String ticketId, String invoiceId, long amountCents, String traceId) {
        try (Step step = Step.begin("ticket-" + ticketId + ":refund")) {
            Refund refund = amountCents > APPROVAL_LIMIT_CENTS
                    ? largeRefunds.issueLargeRefund(invoiceId, amountCents, traceId)
                    : refunds.issueRefund(invoiceId, amountCents, traceId);
            return "Refund " + refund.refundId() + " issued: " + refund.amountCents() + " cents on " + invoiceId;
        } catch (ApprovalPendingException e) {
            return "A refund of " + amountCents + " cents needs a person's approval: it is issued once approved";
        } catch (ApprovalDeniedException e) {
            return "A person declined this refund: it will not be issued";
        }
    }
}
