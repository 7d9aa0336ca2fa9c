package io.idempotent.mcp;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;

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

    /**
     * The same refund for a handler that runs it on another thread ({@code subscribeOn}): the step
     * comes from the request's {@code _meta}, which this context parameter carries.
     */
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_refund_from_request")
    public String issueRefund(String invoiceId, long amountCents, CallToolRequest request) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }
}
