package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class LeaseTooShort {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE,
            lease = "PT0.0004S")
    public String refund(String invoiceId) { return invoiceId; }
}
