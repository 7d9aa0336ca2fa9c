package io.idempotent.runtime;

/**
 * The effect of this operation may or may not have happened, and neither the tool's reconciler nor its retry policy could settle it. A person decides, through {@link Operations#settleApplied} or {@link Operations#settleNotApplied}. Not retryable until then.
 */
public class NeedsReconciliationException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What to do, unless the thrower says more precisely (the runtime's reconciliation adds where to look). */
    public static final String ADVICE = "It is not retried blindly: check the downstream, then settle it with "
            + "Operations.settleApplied or Operations.settleNotApplied (Operations.find shows its "
            + "attempt log and last error)";

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public NeedsReconciliationException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, ADVICE, null);
    }

    /** Creates the exception with its cause. */
    public NeedsReconciliationException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, ADVICE, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public NeedsReconciliationException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, false, cause);
    }
}
