package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

/** Nothing of a transactional tool is uncertain: no reconciler is ever asked. */
public class TransactionalReconciler {
    @IdempotentTool(key = "credit:{invoiceId}:{step}", transactional = true, downstreamKey = false,
            reconciler = ManualReview.class,
            retry = Retry.SAFE)
    public String creditNote(String invoiceId) { return invoiceId; }
}
