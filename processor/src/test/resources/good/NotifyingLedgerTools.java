package good;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** A transactional tool that also sends through the outbox: both answers are declared. */
public class NotifyingLedgerTools {
    @IdempotentTool(key = "ledger:{invoiceId}:{step}", transactional = true, downstreamKey = false,
            retry = Retry.SAFE, name = "ledger_entry_notified", outbox = {"customer-notifications", "audit"})
    public String addEntry(String invoiceId, long amountCents) {
        return invoiceId;
    }
}
