package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class ApprovalValidityUnused {
    @IdempotentTool(key = "deploy:{service}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE,
            approvalValidity = "PT4H")
    public String deploy(String service) { return service; }
}
