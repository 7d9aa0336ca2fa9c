package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;

public class NotAppliedOnBroad {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE,
            notAppliedOn = {IllegalArgumentException.class, Exception.class})
    public String refund(String invoiceId) { return invoiceId; }
}
