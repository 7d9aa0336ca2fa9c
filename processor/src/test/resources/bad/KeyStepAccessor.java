package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyStepAccessor {
    @IdempotentTool(key = "refund:{invoiceId}:{step.id}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(String invoiceId) { return invoiceId; }
}
