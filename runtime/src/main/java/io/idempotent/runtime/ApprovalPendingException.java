package io.idempotent.runtime;

/**
 * The tool needs a person's approval for this operation ({@code Approval.REQUIRED}) and none is
 * valid yet: the operation is recorded as awaiting approval and the body did not run. Retryable:
 * the same call, with the same key and the same arguments, runs once an operator has granted it.
 * A model should not re-plan or change the arguments: a changed call is a different decision
 * (under the same key, a payload conflict) and the approval does not cover it.
 */
public class ApprovalPendingException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What to do, unless the thrower says more precisely. */
    static final String ADVICE = "Wait for an operator to decide (idem approvals lists the queue; idem approve or"
            + " idem deny decides), then call again with the same key and arguments";

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public ApprovalPendingException(String tool, String operationKey, String happened) {
        super(tool, operationKey, happened, ADVICE, true, null);
    }
}
