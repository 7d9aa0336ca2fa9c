package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import org.springframework.ai.chat.model.ToolContext;

public class KeyCollapsesBesideContext {
    @IdempotentTool(key = "refund:{invoiceId}:{amountCents}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(String invoiceId, long amountCents, ToolContext toolContext) { return invoiceId; }
}
