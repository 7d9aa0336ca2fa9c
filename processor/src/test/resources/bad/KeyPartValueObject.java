package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyPartValueObject {
    public record Invoice(String id, long amountCents) {}

    @IdempotentTool(key = "refund:{invoice}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(Invoice invoice) { return invoice.id(); }
}
