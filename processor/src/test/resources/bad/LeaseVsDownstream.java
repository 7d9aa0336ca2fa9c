package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class LeaseVsDownstream {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "PT1H",
            retry = Retry.SAFE, lease = "PT2H")
    public String refund(String invoiceId) { return invoiceId; }
}
