package io.idempotent.mcp;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpToolParam;

/**
 * {@code @McpTool} beans that Spring AI's MCP server auto-configuration lists: a step-keyed refund
 * (its MCP name differs from the tool's) and an argument-keyed credit whose author set a hint.
 */
public class StarterTools {

    @McpTool(name = "starter_refund", description = "Refund an invoice, in cents")
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "starter_refund_tool")
    public String refund(@McpToolParam(description = "the invoice") String invoiceId,
            @McpToolParam(description = "the amount in cents") long amountCents) {
        return "re_" + invoiceId + "_" + amountCents;
    }

    @McpTool(name = "starter_credit", description = "Credit an invoice, in cents",
            annotations = @McpTool.McpAnnotations(destructiveHint = false))
    @IdempotentTool(key = "credit:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "starter_credit")
    public String credit(@McpToolParam(description = "the invoice") String invoiceId,
            @McpToolParam(description = "the amount in cents") long amountCents) {
        return "cr_" + invoiceId + "_" + amountCents;
    }
}
