package bad;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** Approval and a transaction are not combined in this version. */
public class TransactionalApproval {
    @IdempotentTool(key = "credit:{invoiceId}:{step}", transactional = true, downstreamKey = false,
            approval = Approval.REQUIRED,
            retry = Retry.SAFE)
    public String creditNote(String invoiceId) { return invoiceId; }
}
