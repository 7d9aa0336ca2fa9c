package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class KeyConstant {
    @IdempotentTool(key = "refund", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String refund(String invoiceId) { return invoiceId; }
}
