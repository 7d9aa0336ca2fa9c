package io.idempotent.temporal;

/** The same activity without the annotation: what Temporal does to it unaided. */
public class UnprotectedRefundActivities implements RefundActivities {

    private final Ledger ledger;

    public UnprotectedRefundActivities(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    public String refund(String invoiceId, long amountCents) {
        return ledger.pay(invoiceId, amountCents);
    }
}
