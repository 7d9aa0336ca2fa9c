package io.idempotent.examples.tools;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.examples.providers.Ledger;
import io.idempotent.runtime.OperationContext;

/**
 * A write plus a message (docs/outbox.md): the tool books a credit in the ledger, which keeps one
 * line per operation key, and tells the customer through the outbox. The message is written with
 * the operation's completion, so it exists exactly when the credit's record says "completed",
 * and a relay delivers it with the operation key as its idempotency key.
 */
public class CreditTools {

    /** Where the customer notifications go; the relay's sender maps it to a topic or an endpoint. */
    public static final String NOTIFICATIONS = "customer-notifications";

    private final Ledger ledger;

    /** Tools on {@code ledger}. */
    public CreditTools(Ledger ledger) {
        this.ledger = ledger;
    }

    /** Credits part of an invoice and notifies the customer; the workflow's step is part of the key. */
    @IdempotentTool(key = "credit:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P30D",
            retry = Retry.UNCERTAIN, name = "book_credit", outbox = NOTIFICATIONS)
    public LedgerLine bookCredit(String invoiceId, long amountCents) {
        OperationContext op = OperationContext.current();
        long line = ledger.bookCredit(op.key(), invoiceId, amountCents);
        op.send(NOTIFICATIONS, "{\"invoice\":\"" + invoiceId + "\",\"creditCents\":" + amountCents + "}");
        return new LedgerLine(line, invoiceId, amountCents);
    }
}
