package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class ToolNameControl {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE,
            name = "issue_refund\u0000")
    public String refund(String invoiceId) { return invoiceId; }
}
