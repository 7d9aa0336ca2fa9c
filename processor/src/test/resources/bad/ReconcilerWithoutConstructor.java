package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class ReconcilerWithoutConstructor {
    public static class Needy implements io.idempotent.runtime.Reconciler<String> {
        public Needy(String endpoint) {
        }

        @Override
        public io.idempotent.runtime.Reconciliation<String> reconcile(io.idempotent.runtime.OperationRecord op) {
            return io.idempotent.runtime.Reconciliation.unknown("?");
        }
    }

    @IdempotentTool(key = "email:{userId}:{step}", downstreamKey = false, retry = Retry.SAFE,
            reconciler = Needy.class)
    public String send(String userId) { return userId; }
}
