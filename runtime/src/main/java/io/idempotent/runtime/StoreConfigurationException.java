package io.idempotent.runtime;

/**
 * The store is not usable as configured: an unknown store name, a missing or incompatible schema, a bad URL. Nothing was claimed and the body did not run.
 */
public class StoreConfigurationException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public StoreConfigurationException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public StoreConfigurationException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return false} */
    @Override
    public boolean retryable() {
        return false;
    }
}
