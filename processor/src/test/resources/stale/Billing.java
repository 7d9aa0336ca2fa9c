package stale;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class Billing {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(String invoiceId) { return invoiceId; }
}
