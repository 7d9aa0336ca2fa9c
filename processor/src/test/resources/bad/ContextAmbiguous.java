package bad;

import dev.langchain4j.invocation.InvocationParameters;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import org.springframework.ai.chat.model.ToolContext;

public class ContextAmbiguous {
    @IdempotentTool(key = "refund:{invoiceId}:{context.approvalId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String issueRefund(String invoiceId, ToolContext toolContext, InvocationParameters parameters) {
        return invoiceId;
    }
}
