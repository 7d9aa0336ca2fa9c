package keyaccessors;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import keyaccessors.other.Order;

public class BadAccessors {
    @IdempotentTool(key = "a:{order.number}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String unknown(Order order) { return "a"; }

    @IdempotentTool(key = "b:{order.named}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String notBoolean(Order order) { return "b"; }

    @IdempotentTool(key = "c:{order.note}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String packagePrivate(Order order) { return "c"; }

    @IdempotentTool(key = "d:{order.DEFAULT_REGION}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String staticField(Order order) { return "d"; }

    @IdempotentTool(key = "e:{order.hidden}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String packageField(Order order) { return "e"; }
}
