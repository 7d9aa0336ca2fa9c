package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;

public class TypeUndefined {
    @IdempotentTool(key = "refund:{invoice.id}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(NoSuchInvoice invoice) { return "ok"; }
}
