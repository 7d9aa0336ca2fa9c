package io.idempotent.temporal;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One refund whose activity runs on another task queue than the workflow, so that activity
 * workers (in other JVMs) can come and go while the workflow's worker stays.
 */
@WorkflowInterface
public interface RemoteRefundDesk {

    /** Refunds once on {@code activityQueue}; answers the refund id or "failure:TYPE". */
    @WorkflowMethod
    String refund(String invoiceId, long amountCents, String activityQueue);
}
