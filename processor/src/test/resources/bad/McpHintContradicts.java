package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpTool.McpAnnotations;

public class McpHintContradicts {
    @McpTool(name = "refund", annotations = @McpAnnotations(idempotentHint = true))
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(String invoiceId, long amountCents) { return invoiceId; }

    @McpTool(name = "credit", annotations = @McpAnnotations(idempotentHint = false))
    @IdempotentTool(key = "credit:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String credit(String invoiceId, long amountCents) { return invoiceId; }

    @McpTool(name = "lookup", annotations = @McpAnnotations(title = "Lookup", destructiveHint = false))
    @IdempotentTool(key = "lookup:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String lookup(String invoiceId, long amountCents) { return invoiceId; }
}
