package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyAccessorUndefined {
    /** Its number's type is defined by nothing: the key's accessor chain ends in it. */
    public record Invoice(String id, NoSuchNumber number) {
    }

    @IdempotentTool(key = "refund:{invoice.number}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String refund(Invoice invoice) { return "ok"; }
}
