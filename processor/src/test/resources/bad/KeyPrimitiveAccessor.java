package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyPrimitiveAccessor {
    @IdempotentTool(key = "refund:{amountCents.value}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(long amountCents) { return "r"; }
}
