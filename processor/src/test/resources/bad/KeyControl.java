package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyControl {
    @IdempotentTool(key = "refund:{invoiceId}:{step}\t", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(String invoiceId) { return invoiceId; }
}
