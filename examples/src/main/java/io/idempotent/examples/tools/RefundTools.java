package io.idempotent.examples.tools;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.examples.providers.PaymentProvider;
import io.idempotent.runtime.OperationContext;

/**
 * Answer 1 to "what about the external effect?": the downstream deduplicates. The payment provider
 * keeps the first answer per idempotency key, and the tool sends the operation key as that key,
 * so re-running an uncertain refund with the same key cannot refund twice
 * ({@code Retry.UNCERTAIN}), for as long as the provider remembers keys.
 */
public class RefundTools {

    private final PaymentProvider payments;

    /** Tools on {@code payments}. */
    public RefundTools(PaymentProvider payments) {
        this.payments = payments;
    }

    /** Refunds part of an invoice; the workflow's step (the approval) is part of the key. */
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, name = "issue_refund")
    public Refund issueRefund(String invoiceId, long amountCents, @NotPayload String traceId) {
        String key = OperationContext.current().key();
        return new Refund(payments.refund(key, invoiceId, amountCents), invoiceId, amountCents);
    }
}
