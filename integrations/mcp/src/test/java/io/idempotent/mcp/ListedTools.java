package io.idempotent.mcp;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;

/**
 * Tools whose MCP listing the tests read: a step-keyed refund (MCP name = tool name, found
 * through the release-gate tables), an argument-keyed lookup, and a Spring AI @McpTool whose
 * author changed two hints from Spring AI's defaults.
 */
public class ListedTools {

    private final PaymentProvider provider;
    /** When set, the refund body throws after the provider call: an uncertain failure. */
    volatile boolean failAfterTheProvider;

    public ListedTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            notAppliedOn = PaymentProvider.Declined.class, name = "listed_refund")
    public String refund(String invoiceId, long amountCents) {
        String refund = provider.refund(OperationContext.current().key(), invoiceId, amountCents);
        if (failAfterTheProvider) {
            throw new IllegalStateException("the provider's reply was lost");
        }
        return refund;
    }

    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "listed_refund_with_hints")
    public String refundWithHints(String invoiceId, long amountCents) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }

    @IdempotentTool(key = "credit:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "listed_credit")
    public String credit(String invoiceId, long amountCents) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }

    @McpTool(name = "spring_credit", description = "Credit an invoice, in cents",
            annotations = @McpTool.McpAnnotations(destructiveHint = false, openWorldHint = false))
    @IdempotentTool(key = "credit:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "listed_spring_credit")
    public String springCredit(@McpToolParam(description = "the invoice") String invoiceId,
            @McpToolParam(description = "the amount in cents") long amountCents) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }
}
