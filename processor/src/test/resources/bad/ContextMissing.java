package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class ContextMissing {
    @IdempotentTool(key = "refund:{invoiceId}:{context.approvalId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String issueRefund(String invoiceId) { return invoiceId; }
}
