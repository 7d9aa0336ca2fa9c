package good;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** Durations written with blanks around them, which the release gate reads as the durations within. */
public class SpacedDurations {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = " P1D ",
            retry = Retry.SAFE, lease = " PT30S ", retention = "P7D ", approval = Approval.REQUIRED,
            approvalValidity = " PT4H")
    public String refund(String invoiceId) {
        return invoiceId;
    }
}
