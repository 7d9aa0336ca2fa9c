package io.idempotent.runtime;

/**
 * The stored result of a completed operation can no longer be read into the method's return type (the class changed between deploys). The body is never re-run: the operation did happen. Fix the type, or settle the record by hand.
 */
public class ResultNotReplayableException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public ResultNotReplayableException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public ResultNotReplayableException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return false} */
    @Override
    public boolean retryable() {
        return false;
    }
}
