package io.idempotent.examples.temporal;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** The refund desk: refunds an invoice once a person approved it. */
@WorkflowInterface
public interface RefundDesk {

    /** Refunds {@code amountCents} of {@code invoiceId} under the approval {@code approvalId}. */
    @WorkflowMethod
    Refund refund(String invoiceId, long amountCents, String approvalId);
}
