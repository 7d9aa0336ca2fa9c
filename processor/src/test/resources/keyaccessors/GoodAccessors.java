package keyaccessors;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import keyaccessors.other.Order;

public class GoodAccessors {
    @IdempotentTool(key = "ship:{order.code}:{order.paid}:{order.region}:{step}", downstreamKey = true,
            downstreamRetention = "P1D", retry = Retry.SAFE)
    public String ship(Order order) { return "shipped"; }
}
