package io.idempotent.runtime;

/**
 * The store is not usable as configured: an unknown store name, a missing or incompatible schema, a bad URL. Nothing was claimed and the body did not run.
 */
public class StoreConfigurationException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public StoreConfigurationException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, null, null);
    }

    /** Creates the exception with its cause. */
    public StoreConfigurationException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, null, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public StoreConfigurationException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, false, cause);
    }
}
