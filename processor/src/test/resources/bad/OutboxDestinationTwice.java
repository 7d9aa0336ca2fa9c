package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** A destination listed twice hides the one that was meant. */
public class OutboxDestinationTwice {
    @IdempotentTool(key = "credit:{invoiceId}:{step}", transactional = true, downstreamKey = false,
            outbox = {"customer-notifications", "customer-notifications"},
            retry = Retry.SAFE)
    public String creditNote(String invoiceId) { return invoiceId; }
}
