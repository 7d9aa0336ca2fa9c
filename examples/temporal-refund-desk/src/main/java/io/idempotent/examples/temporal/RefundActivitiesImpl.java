package io.idempotent.examples.temporal;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

/**
 * The activity method is the tool. Its key is the invoice and the workflow's step (the approval);
 * the provider has no key of its own, so an uncertain outcome goes to a person, and a retry that
 * finds the refund completed replays it.
 */
public class RefundActivitiesImpl implements RefundActivities {

    private final Payments payments;

    /** Activities on {@code payments}. */
    public RefundActivitiesImpl(Payments payments) {
        this.payments = payments;
    }

    @Override
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, name = "temporal_issue_refund")
    public Refund issueRefund(String invoiceId, long amountCents) {
        return new Refund(payments.refund(invoiceId, amountCents), invoiceId, amountCents);
    }
}
