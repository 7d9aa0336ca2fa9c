package io.idempotent.runtime;

/**
 * An earlier attempt of this operation failed and the tool's policy ({@code Retry.NEVER}) does not re-run it automatically. Use a new operation key, or settle the operation through {@link Operations}.
 */
public class OperationFailedException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public OperationFailedException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public OperationFailedException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return false} */
    @Override
    public boolean retryable() {
        return false;
    }
}
