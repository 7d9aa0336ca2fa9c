package io.idempotent.mcp;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;

/** The server's idempotent tool; its {step} is the one IdempotentMcp opens from the request's _meta. */
public class RefundTools {

    private final PaymentProvider provider;

    public RefundTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_refund")
    public String issueRefund(String invoiceId, long amountCents) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }
}
