package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class KeyPlaceholder {
    @IdempotentTool(key = "refund:{invoice}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String issueRefund(String invoiceId, String approvalId) { return invoiceId; }
}
