package io.idempotent.temporal;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

/** A payout a person approves before it runs; the step is the workflow's decision. */
public class PayoutActivities implements RefundActivities {

    private final Ledger ledger;

    public PayoutActivities(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    @IdempotentTool(key = "payout:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, name = "temporal_payout", approval = Approval.REQUIRED)
    public String refund(String invoiceId, long amountCents) {
        return ledger.pay(invoiceId, amountCents);
    }
}
