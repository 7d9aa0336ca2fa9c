package io.idempotent.runtime;

/**
 * The effect of this operation may or may not have happened, and neither the tool's reconciler nor its retry policy could settle it. A person decides, through {@link Operations#settleApplied} or {@link Operations#settleNotApplied}. Not retryable until then.
 */
public class NeedsReconciliationException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public NeedsReconciliationException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public NeedsReconciliationException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return false} */
    @Override
    public boolean retryable() {
        return false;
    }
}
