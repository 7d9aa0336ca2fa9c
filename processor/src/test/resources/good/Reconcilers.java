package good;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/**
 * Reconcilers the binding can create and whose results fit: package-private in the tool's package,
 * Void for void, Reconciler through a superclass.
 */
public class Reconcilers {
    static class Nearby implements io.idempotent.runtime.Reconciler<String> {
        public Nearby() {
        }

        @Override
        public io.idempotent.runtime.Reconciliation<String> reconcile(io.idempotent.runtime.OperationRecord op) {
            return io.idempotent.runtime.Reconciliation.unknown("?");
        }
    }

    public static class Voids implements io.idempotent.runtime.Reconciler<Void> {
        @Override
        public io.idempotent.runtime.Reconciliation<Void> reconcile(io.idempotent.runtime.OperationRecord op) {
            return io.idempotent.runtime.Reconciliation.unknown("?");
        }
    }

    /** Implements Reconciler through its superclass. */
    public static class Inherited extends Voids {
    }

    @IdempotentTool(key = "remind:{customerId}:{step}", downstreamKey = false, retry = Retry.SAFE,
            reconciler = Inherited.class)
    public void remind(String customerId) { }

    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = false, retry = Retry.SAFE,
            reconciler = Nearby.class)
    public String refund(String invoiceId) { return invoiceId; }

    @IdempotentTool(key = "notify:{customerId}:{step}", downstreamKey = false, retry = Retry.SAFE,
            reconciler = Voids.class)
    public void notifyCustomer(String customerId) { }
}
