package io.idempotent.runtime;

/**
 * The reconciler for effects that only a person can settle. It always answers UNKNOWN, so an
 * uncertain operation waits (callers get {@link NeedsReconciliationException}) until an operator
 * settles it with {@link Operations#settleApplied} or {@link Operations#settleNotApplied}.
 */
public final class ManualReview implements Reconciler<Object> {

    /** Creates the reconciler. */
    public ManualReview() {
    }

    /** {@return UNKNOWN, always} */
    @Override
    public Reconciliation<Object> reconcile(OperationRecord operation) {
        return Reconciliation.unknown("manual review: a person must decide whether the effect of "
                + operation.key() + " happened");
    }
}
