package io.idempotent.runtime;

/**
 * A class has {@code @IdempotentTool} methods but no generated binding: it was compiled without the {@code idempotent-processor} annotation processor. The call is refused; add the processor to the build.
 */
public class MissingBindingException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public MissingBindingException(String tool, String operationKey, String message) {
        super(tool, operationKey, message, null);
    }

    /** Creates the exception with its cause. */
    public MissingBindingException(String tool, String operationKey, String message, Throwable cause) {
        super(tool, operationKey, message, cause);
    }

    /** {@return false} */
    @Override
    public boolean retryable() {
        return false;
    }
}
