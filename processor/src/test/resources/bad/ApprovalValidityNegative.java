package bad;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class ApprovalValidityNegative {
    @IdempotentTool(key = "deploy:{service}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE, approval = Approval.REQUIRED,
            approvalValidity = "-PT9223372036854775807S")
    public String deploy(String service) { return service; }
}
