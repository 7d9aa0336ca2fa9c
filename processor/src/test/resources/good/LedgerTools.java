package good;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/** A transactional tool: its effect is a write in the store's database, committed with the record. */
public class LedgerTools {
    public record Entry(String invoiceId, long amountCents) {
    }

    @IdempotentTool(key = "ledger:{invoiceId}:{step}", transactional = true, downstreamKey = false,
            retry = Retry.SAFE, name = "ledger_entry")
    public Entry addEntry(String invoiceId, long amountCents) {
        return new Entry(invoiceId, amountCents);
    }
}
