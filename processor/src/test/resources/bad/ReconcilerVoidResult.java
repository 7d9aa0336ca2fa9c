package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class ReconcilerVoidResult {
    public static class Strings implements io.idempotent.runtime.Reconciler<String> {
        @Override
        public io.idempotent.runtime.Reconciliation<String> reconcile(io.idempotent.runtime.OperationRecord op) {
            return io.idempotent.runtime.Reconciliation.unknown("?");
        }
    }

    @IdempotentTool(key = "notify:{customerId}:{step}", downstreamKey = false, retry = Retry.SAFE,
            reconciler = Strings.class)
    public void notifyCustomer(String customerId) { }
}
