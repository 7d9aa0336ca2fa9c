package good;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

/** A refund above the limit needs a person (for a day, the default); a deployment for four hours; a small refund none. */
public class ApprovalTools {

    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE, approval = Approval.REQUIRED, name = "refund_above_limit")
    public String refundAboveLimit(String invoiceId, long amountCents) {
        return "re_" + invoiceId;
    }

    @IdempotentTool(key = "deploy:{service}:{version}:{step}", downstreamKey = false,
            reconciler = ManualReview.class, retry = Retry.NEVER, approval = Approval.REQUIRED,
            approvalValidity = "PT4H")
    public String deploy(String service, String version) {
        return service + "@" + version;
    }

    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE, name = "refund_within_limit")
    public String refundWithinLimit(String invoiceId, long amountCents) {
        return "re_" + invoiceId;
    }
}
