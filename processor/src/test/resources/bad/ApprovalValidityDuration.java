package bad;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class ApprovalValidityDuration {
    @IdempotentTool(key = "deploy:{service}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE, approval = Approval.REQUIRED,
            approvalValidity = "one day")
    public String deploy(String service) { return service; }
}
