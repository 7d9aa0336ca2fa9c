package io.idempotent.temporal;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

/**
 * The activity method is the idempotent tool: its key is the step the interceptor opened (the
 * workflow's, else the activity's run and id). The ledger has no key of its own, so an uncertain
 * outcome goes to a person, never to a blind retry.
 */
public class IdempotentRefundActivities implements RefundActivities {

    private final Ledger ledger;

    public IdempotentRefundActivities(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    @IdempotentTool(key = "refund:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, name = "temporal_refund")
    public String refund(String invoiceId, long amountCents) {
        return ledger.pay(invoiceId, amountCents);
    }
}
