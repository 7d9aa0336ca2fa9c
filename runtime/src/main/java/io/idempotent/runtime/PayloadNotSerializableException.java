package io.idempotent.runtime;

/**
 * A payload argument could not be turned into canonical JSON, so no payload hash exists and nothing was claimed.
 */
public class PayloadNotSerializableException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public PayloadNotSerializableException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public PayloadNotSerializableException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return false} */
    @Override
    public boolean retryable() {
        return false;
    }
}
