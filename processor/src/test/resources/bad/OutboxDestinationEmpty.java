package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** An empty destination name is one no sender can route. */
public class OutboxDestinationEmpty {
    @IdempotentTool(key = "credit:{invoiceId}:{step}", transactional = true, downstreamKey = false,
            outbox = {"audit", ""},
            retry = Retry.SAFE)
    public String creditNote(String invoiceId) { return invoiceId; }
}
