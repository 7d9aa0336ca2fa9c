package good;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** A tool named in Japanese ("refund"): no letter of it is one of a Java constant's. */
public class UnicodeToolName {
    @IdempotentTool(key = "refund:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "返金")
    public String refund(String id) { return id; }
}
