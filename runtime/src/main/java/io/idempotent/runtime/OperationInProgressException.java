package io.idempotent.runtime;

/**
 * Another live attempt holds the lease on this operation key. Retryable: wait and call again with the same key; do not start another worker.
 */
public class OperationInProgressException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public OperationInProgressException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public OperationInProgressException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return true} */
    @Override
    public boolean retryable() {
        return true;
    }
}
