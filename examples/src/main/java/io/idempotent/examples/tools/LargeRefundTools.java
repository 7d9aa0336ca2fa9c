package io.idempotent.examples.tools;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.examples.providers.PaymentProvider;
import io.idempotent.runtime.OperationContext;

/**
 * A refund above the desk's limit: the refund of {@link RefundTools}, but a person approves each
 * one before its body runs. The approval is bound to the operation (this tool, the key, the
 * invoice and amount the approver saw); it does not replace the downstream key, which still keeps
 * an approved refund whose reply was lost from refunding twice.
 */
public class LargeRefundTools {

    private final PaymentProvider payments;

    /** Tools on {@code payments}. */
    public LargeRefundTools(PaymentProvider payments) {
        this.payments = payments;
    }

    /** Refunds part of an invoice once a person approved this amount; the key is the small refund's. */
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, name = "issue_large_refund",
            approval = Approval.REQUIRED,      // the first call records a request and runs nothing
            approvalValidity = "PT8H")         // a grant must be used within eight hours
    public Refund issueLargeRefund(String invoiceId, long amountCents, @NotPayload String traceId) {
        String key = OperationContext.current().key();
        return new Refund(payments.refund(key, invoiceId, amountCents), invoiceId, amountCents);
    }
}
