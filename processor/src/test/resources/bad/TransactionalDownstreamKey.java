package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** A transactional tool's effect is a write in the store's database, not a downstream's. */
public class TransactionalDownstreamKey {
    @IdempotentTool(key = "credit:{invoiceId}:{step}", transactional = true,
            downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String creditNote(String invoiceId) { return invoiceId; }
}
