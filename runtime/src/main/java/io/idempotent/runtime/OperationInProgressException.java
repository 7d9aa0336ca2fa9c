package io.idempotent.runtime;

/**
 * Another live attempt holds the lease on this operation key. Retryable: wait and call again with the same key; do not start another worker.
 */
public class OperationInProgressException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What to do, unless the thrower says more precisely. */
    static final String ADVICE = "Wait and retry with the same key; do not start another worker";

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public OperationInProgressException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, ADVICE, null);
    }

    /** Creates the exception with its cause. */
    public OperationInProgressException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, ADVICE, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public OperationInProgressException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, true, cause);
    }
}
