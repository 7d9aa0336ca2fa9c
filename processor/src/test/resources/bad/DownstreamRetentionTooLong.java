package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class DownstreamRetentionTooLong {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, retry = Retry.SAFE,
            downstreamRetention = "PT9223372036854775807S")
    public String refund(String invoiceId) { return invoiceId; }
}
