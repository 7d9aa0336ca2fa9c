package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** The default validity written out on a tool without approval does nothing, but changes nothing either: accepted. */
public class ApprovalValidityDefaultUnused {
    @IdempotentTool(key = "deploy:{service}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE, approvalValidity = "PT24H")
    public String deploy(String service) { return service; }
}
