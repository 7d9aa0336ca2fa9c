package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;

public class NotPayloadOutsideTool {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(String invoiceId, @NotPayload String traceId) { return invoiceId; }

    public String lookup(String invoiceId,
            @NotPayload String requestId) { return invoiceId; }
}
