package io.idempotent.runtime;

/**
 * The operation store could not be reached or did not answer. The tool body did not run (fail closed). Retryable: nothing was claimed, or the claim will be answered consistently on the next call.
 */
public class StoreUnavailableException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What to do, unless the thrower says more precisely. */
    static final String ADVICE = "Retry the call later with the same key";

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public StoreUnavailableException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, ADVICE, null);
    }

    /** Creates the exception with its cause. */
    public StoreUnavailableException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, ADVICE, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public StoreUnavailableException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, true, cause);
    }
}
