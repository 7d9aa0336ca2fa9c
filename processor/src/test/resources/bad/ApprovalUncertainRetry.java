package bad;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

/** A person approving the operation does not make re-running an uncertain call safe. */
public class ApprovalUncertainRetry {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            approval = Approval.REQUIRED,
            retry = Retry.UNCERTAIN)
    public String refundAboveLimit(String invoiceId, long amountCents) { return invoiceId; }
}
