package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class LeaseTooLong {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE,
            lease = "PT9223372036854775807S")
    public String refund(String invoiceId) { return invoiceId; }
}
