package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class DownstreamRetention {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, retry = Retry.SAFE)
    public String refund(String invoiceId) { return invoiceId; }
}
