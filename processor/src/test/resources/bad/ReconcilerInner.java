package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class ReconcilerInner {
    /** Not static: the binding has no ReconcilerInner to create it with. */
    public class Checker implements io.idempotent.runtime.Reconciler<String> {
        @Override
        public io.idempotent.runtime.Reconciliation<String> reconcile(io.idempotent.runtime.OperationRecord op) {
            return io.idempotent.runtime.Reconciliation.unknown("?");
        }
    }

    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = false, retry = Retry.SAFE,
            reconciler = Checker.class)
    public String refund(String invoiceId) { return invoiceId; }
}
