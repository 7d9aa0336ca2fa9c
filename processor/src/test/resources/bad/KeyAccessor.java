package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class KeyAccessor {
    public record Invoice(String id, long amountCents) {}

    @IdempotentTool(key = "refund:{invoice.number}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(Invoice invoice) { return invoice.id(); }
}
