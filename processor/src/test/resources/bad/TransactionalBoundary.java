package bad;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** A transactional tool's writes commit with the record: there is no boundary to mark. */
public class TransactionalBoundary {
    @IdempotentTool(key = "credit:{invoiceId}:{step}", transactional = true, downstreamKey = false,
            effectBoundary = EffectBoundary.MARKED,
            retry = Retry.SAFE)
    public String creditNote(String invoiceId) { return invoiceId; }
}
