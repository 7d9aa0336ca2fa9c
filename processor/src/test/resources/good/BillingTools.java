package good;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Reconciler;
import io.idempotent.runtime.Reconciliation;
import java.util.List;
import java.util.Map;
import java.util.Optional;

public class BillingTools {

    public record Customer(String id) {
    }

    public record Invoice(String id, Customer customer, long amountCents) {
    }

    public record Refund(String refundId, long amountCents) {
    }

    public record TraceInfo(String traceId) {
    }

    public static class CardDeclined extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    public static class RefundReconciler implements Reconciler<Refund> {
        @Override
        public Reconciliation<Refund> reconcile(OperationRecord operation) {
            return Reconciliation.applied(new Refund("reconciled-" + operation.key(), 0));
        }
    }

    public int refundsIssued;

    @IdempotentTool(key = "refund:{invoice.customer.id}:{invoice.id}:{step}", downstreamKey = true,
            downstreamRetention = "P1D", retry = Retry.UNCERTAIN, reconciler = RefundReconciler.class,
            notAppliedOn = CardDeclined.class, lease = "PT10S", name = "issue_refund")
    public Refund issueRefund(Invoice invoice, @NotPayload TraceInfo trace) {
        refundsIssued++;
        return new Refund("re_" + OperationContext.current().key(), invoice.amountCents());
    }

    @IdempotentTool(key = "statement:{customerId}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, effectBoundary = EffectBoundary.MARKED)
    public List<Refund> statement(String customerId, Map<String, Integer> filters) {
        return List.of();
    }

    @IdempotentTool(key = "credit:{customerId}:{step}", downstreamKey = true, downstreamRetention = "PT12H",
            retry = Retry.NEVER, store = "ledger")
    static long credit(String customerId, long cents) {
        return cents;
    }

    @IdempotentTool(key = "notify:{customerId}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE)
    void notifyCustomer(String customerId, Optional<String> note) {
    }
}
