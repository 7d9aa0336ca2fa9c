package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyPartAccessorChain {
    public record Invoice(String id, Double amount) {}

    @IdempotentTool(key = "refund:{invoice.id}:{invoice.amount}:{step}", downstreamKey = true,
            downstreamRetention = "P1D", retry = Retry.SAFE)
    public String refund(Invoice invoice) { return invoice.id(); }
}
