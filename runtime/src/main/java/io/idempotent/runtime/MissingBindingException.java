package io.idempotent.runtime;

/**
 * A class has {@code @IdempotentTool} methods but no generated binding: it was compiled without the {@code idempotent-processor} annotation processor. The call is refused; add the processor to the build.
 */
public class MissingBindingException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public MissingBindingException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, null, null);
    }

    /** Creates the exception with its cause. */
    public MissingBindingException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, null, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public MissingBindingException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, false, cause);
    }
}
