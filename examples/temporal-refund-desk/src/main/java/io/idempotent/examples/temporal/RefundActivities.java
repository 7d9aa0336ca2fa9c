package io.idempotent.examples.temporal;

import io.temporal.activity.ActivityInterface;

/** The refund desk's activity. */
@ActivityInterface
public interface RefundActivities {

    /** Refunds part of an invoice. */
    Refund issueRefund(String invoiceId, long amountCents);
}
