package io.idempotent.temporal;

import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** A payout that waits for the approver's signal instead of burning retries (docs/durable-engines.md). */
@WorkflowInterface
public interface PayoutDesk {

    /** Pays inside {@code step}; answers the payout id or "failure:TYPE". */
    @WorkflowMethod
    String pay(String invoiceId, long amountCents, String step);

    /** The approver decided (granted or denied) in the approval queue. */
    @SignalMethod
    void decided();
}
