package good;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import org.springframework.ai.chat.model.ToolContext;

/**
 * Spring AI's context on two tools: the first's key reads none of its entries, the second's one.
 * The third has an ordinary parameter that happens to be named context.
 */
public class ContextKeys {
    public record Ticket(String id) {
    }

    @IdempotentTool(key = "refund:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String refund(String invoiceId, long amountCents, ToolContext toolContext) { return invoiceId; }

    @IdempotentTool(key = "credit:{invoiceId}:{context.approvalId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String credit(String invoiceId, long amountCents, ToolContext toolContext) { return invoiceId; }

    @IdempotentTool(key = "note:{context.id}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String note(Ticket context) { return context.id(); }
}
