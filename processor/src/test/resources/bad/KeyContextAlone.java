package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyContextAlone {
    @IdempotentTool(key = "refund:{invoiceId}:{context}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(String invoiceId, long amountCents) { return invoiceId; }
}
