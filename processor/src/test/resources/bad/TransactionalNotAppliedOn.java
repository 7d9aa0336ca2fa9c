package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** Every failure of a transactional tool rolls back: notAppliedOn says nothing more. */
public class TransactionalNotAppliedOn {
    @IdempotentTool(key = "credit:{invoiceId}:{step}", transactional = true, downstreamKey = false,
            notAppliedOn = IllegalArgumentException.class,
            retry = Retry.SAFE)
    public String creditNote(String invoiceId) { return invoiceId; }
}
