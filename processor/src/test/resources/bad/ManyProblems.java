package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class ManyProblems {
    @IdempotentTool(key = "refund:{invoice}", downstreamKey = true, retry = Retry.SAFE,
            lease = "thirty seconds")
    public String refund(String invoiceId) { return invoiceId; }

    @IdempotentTool(key = "email:{userId}:{step}", downstreamKey = false, retry = Retry.UNCERTAIN)
    public String send(String userId) { return userId; }
}
