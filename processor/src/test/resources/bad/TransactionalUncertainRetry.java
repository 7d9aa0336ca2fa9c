package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** Nothing of a transactional tool is uncertain: Retry.UNCERTAIN is refused as for any tool without an answer. */
public class TransactionalUncertainRetry {
    @IdempotentTool(key = "credit:{invoiceId}:{step}", transactional = true, downstreamKey = false,
            retry = Retry.UNCERTAIN)
    public String creditNote(String invoiceId) { return invoiceId; }
}
