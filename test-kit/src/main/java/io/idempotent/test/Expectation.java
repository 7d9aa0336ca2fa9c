package io.idempotent.test;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.binding.ToolPolicy;

/**
 * What a case must end in, derived from the tool's policy (its generated binding): the final
 * status, the number of effects, and whether a retry may call the downstream again.
 *
 * @param status the final status of the operation
 * @param effects the business effects at the downstream when all is done
 * @param newRequests downstream requests after the first, failed call: 0 (none may be made),
 *     1 (a re-send under the same key), or null (either)
 * @param why the reason, in the words of the report
 */
record Expectation(OperationStatus status, long effects, Integer newRequests, String why) {

    /** A call that completed, its duplicates replayed. */
    static Expectation completedOnce(String why) {
        return new Expectation(OperationStatus.COMPLETED, 1, 0, why);
    }

    /**
     * After {@code fault} struck the first call and the workflow retried with the same key.
     *
     * @param afterFirst the status the first call left (tells a failure proven safe apart)
     */
    static Expectation afterFault(ToolPolicy policy, Fault fault, OperationStatus afterFirst) {
        boolean reconciler = hasRealReconciler(policy);
        boolean resend = policy.retry() == Retry.UNCERTAIN && policy.downstreamKey();
        boolean never = policy.retry() == Retry.NEVER;
        if (fault.downstreamCommitted()) {
            if (reconciler) {
                // A reconciler that cannot tell (UNKNOWN) may still lead to a deduplicated re-send.
                return new Expectation(OperationStatus.COMPLETED, 1, resend ? null : 0,
                        "reconciler consulted: APPLIED, no second effect");
            }
            if (resend) {
                return new Expectation(OperationStatus.COMPLETED, 1, 1,
                        "re-sent under the same key, deduplicated: one effect");
            }
            return new Expectation(OperationStatus.NEEDS_RECONCILIATION, 1, 0, "needs_reconciliation, no second call");
        }
        if (afterFirst == OperationStatus.FAILED_SAFE) {
            return never ? new Expectation(OperationStatus.FAILED_SAFE, 0, 0, "failed safe; Retry.NEVER: not re-run")
                    : new Expectation(OperationStatus.COMPLETED, 1, 1, "failed safe, re-run: one effect");
        }
        if (reconciler) {
            return never ? new Expectation(OperationStatus.FAILED_SAFE, 0, 0,
                    "reconciler consulted: NOT_APPLIED; Retry.NEVER: not re-run")
                    : new Expectation(OperationStatus.COMPLETED, 1, 1, "reconciler consulted: NOT_APPLIED, re-run");
        }
        if (resend) {
            return new Expectation(OperationStatus.COMPLETED, 1, 1, "re-sent under the same key: one effect");
        }
        return new Expectation(OperationStatus.NEEDS_RECONCILIATION, 0, 0, "needs_reconciliation, no second call");
    }

    /** Whether the tool declares a reconciler that asks the downstream (not {@link ManualReview}). */
    static boolean hasRealReconciler(ToolPolicy policy) {
        return policy.reconciler().isPresent() && !ManualReview.class.getName().equals(policy.reconcilerName());
    }
}
