package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class ReconcilerResult {
    public record Refund(String id) {}

    public static class Strings implements io.idempotent.runtime.Reconciler<String> {
        @Override
        public io.idempotent.runtime.Reconciliation<String> reconcile(io.idempotent.runtime.OperationRecord op) {
            return io.idempotent.runtime.Reconciliation.unknown("?");
        }
    }

    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = false, retry = Retry.SAFE,
            reconciler = Strings.class)
    public Refund refund(String invoiceId) { return null; }
}
