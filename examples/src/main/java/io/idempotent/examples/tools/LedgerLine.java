package io.idempotent.examples.tools;

/** A booked credit: the ledger's line id, and what it credits. */
public record LedgerLine(long lineId, String invoiceId, long amountCents) {
}
