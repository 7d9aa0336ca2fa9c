package io.idempotent.mcp;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import org.springframework.ai.mcp.annotation.McpMeta;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;

/** Spring AI @McpTool methods that are idempotent tools: one reads the step from McpMeta, one from the thread. */
public class AnnotatedRefundTools {

    private final PaymentProvider provider;

    public AnnotatedRefundTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @McpTool(name = "refund", description = "Refund an invoice, in cents")
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_annotated_refund")
    public String refund(@McpToolParam(description = "the invoice") String invoiceId,
            @McpToolParam(description = "the amount in cents") long amountCents, McpMeta meta) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }

    @McpTool(name = "credit", description = "Credit an invoice, in cents")
    @IdempotentTool(key = "credit:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_annotated_credit")
    public String credit(@McpToolParam(description = "the invoice") String invoiceId,
            @McpToolParam(description = "the amount in cents") long amountCents) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }
}
