package io.idempotent.runtime;

/**
 * This attempt lost its lease (it expired, or another attempt took the operation over), so it may neither pass the effect boundary nor store its outcome. Retryable: a repeat is answered by the operation's real state (replay, in progress or reconciliation).
 */
public class LeaseLostException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public LeaseLostException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public LeaseLostException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return true} */
    @Override
    public boolean retryable() {
        return true;
    }
}
