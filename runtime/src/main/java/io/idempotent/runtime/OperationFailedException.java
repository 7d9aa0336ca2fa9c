package io.idempotent.runtime;

/**
 * An earlier attempt of this operation failed and the tool's policy ({@code Retry.NEVER}) does not re-run it automatically. Use a new operation key, or settle the operation through {@link Operations}.
 *
 * <p>Also the answer of a duplicate that waited for an attempt in progress which then failed
 * before its effect could begin ({@code failed_safe}): the waiter does not run the body itself.
 * Where the policy re-runs a failed-safe operation, that answer is {@link #retryable()}: the same
 * call repeated (same key, same payload) claims the operation and runs the body.
 */
public class OperationFailedException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What to do, unless the thrower says more precisely. */
    static final String ADVICE = "Use a new operation key for a new decision, or have an operator release this one "
            + "(Operations.find shows the attempt log and the stored error)";

    /** What to do when repeating the same call re-runs the operation. */
    static final String RERUN_ADVICE = "Repeat the same call (same key, same payload): it runs the operation again";

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public OperationFailedException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, ADVICE, null);
    }

    /** Creates the exception with its cause. */
    public OperationFailedException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, ADVICE, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public OperationFailedException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, false, cause);
    }

    /**
     * Creates the exception, {@code retryable} when repeating the same call re-runs the operation
     * (a waiter's answer after a failed-safe attempt, under a policy that re-runs it); the advice
     * follows from it.
     */
    public OperationFailedException(String tool, String operationKey, String happened, boolean retryable) {
        super(tool, operationKey, happened, retryable ? RERUN_ADVICE : ADVICE, retryable, null);
    }
}
