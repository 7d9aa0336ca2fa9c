package io.idempotent.runtime;

/**
 * The rendered operation key is not acceptable (longer than 512 characters, or with control characters). Nothing was claimed.
 */
public class InvalidOperationKeyException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public InvalidOperationKeyException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public InvalidOperationKeyException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return false} */
    @Override
    public boolean retryable() {
        return false;
    }
}
