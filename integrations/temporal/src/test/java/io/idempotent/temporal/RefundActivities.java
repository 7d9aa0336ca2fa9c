package io.idempotent.temporal;

import io.temporal.activity.ActivityInterface;

/** The activity the refund desk calls. */
@ActivityInterface
public interface RefundActivities {

    /** Refunds an invoice; returns the refund id. */
    String refund(String invoiceId, long amountCents);
}
