package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.List;

public class TypeUndefinedInside {
    @IdempotentTool(key = "refund:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String refund(String id,
            List<NoSuchInvoice> invoices,
            NoSuchLine[] lines) { return "ok"; }
}
