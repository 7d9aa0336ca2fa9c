package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class PrivateMethod {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    private String refund(String invoiceId) { return invoiceId; }
}
