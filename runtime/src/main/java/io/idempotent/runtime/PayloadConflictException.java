package io.idempotent.runtime;

/**
 * The operation key was already used with a different payload (other arguments). Never retried: either the caller meant a new operation (it needs a new key) or the arguments changed by mistake.
 */
public class PayloadConflictException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public PayloadConflictException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public PayloadConflictException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return false} */
    @Override
    public boolean retryable() {
        return false;
    }
}
