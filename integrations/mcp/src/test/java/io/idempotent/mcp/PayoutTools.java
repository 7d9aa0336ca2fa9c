package io.idempotent.mcp;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;

/** The server's tool that a person approves before each payout runs; {step} comes from the request's _meta. */
public class PayoutTools {

    private final PaymentProvider provider;

    public PayoutTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @IdempotentTool(key = "payout:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_payout", approval = Approval.REQUIRED)
    public String payInvoice(String invoiceId, long amountCents) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }
}
