package io.idempotent.runtime;

/**
 * The operation store could not be reached or did not answer. The tool body did not run (fail closed). Retryable: nothing was claimed, or the claim will be answered consistently on the next call.
 */
public class StoreUnavailableException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public StoreUnavailableException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public StoreUnavailableException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return true} */
    @Override
    public boolean retryable() {
        return true;
    }
}
