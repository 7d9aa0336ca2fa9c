package io.idempotent.temporal;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import io.temporal.activity.Activity;

/** A tool that tries to complete its activity later, through Temporal's completion client. */
public class ManualCompletionActivities implements RefundActivities {

    private final Ledger ledger;

    public ManualCompletionActivities(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    @IdempotentTool(key = "manual-refund:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, name = "temporal_manual_refund")
    public String refund(String invoiceId, long amountCents) {
        Activity.getExecutionContext().doNotCompleteOnReturn();
        // Where the effect would be handed to another thread that completes the activity later.
        ledger.pay(invoiceId, amountCents);
        return null;
    }
}
