package io.idempotent.runtime;

/**
 * An earlier attempt of this operation failed and the tool's policy ({@code Retry.NEVER}) does not re-run it automatically. Use a new operation key, or settle the operation through {@link Operations}.
 */
public class OperationFailedException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What to do, unless the thrower says more precisely. */
    static final String ADVICE = "Use a new operation key for a new decision, or have an operator release this one "
            + "(Operations.find shows the attempt log and the stored error)";

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public OperationFailedException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, ADVICE, null);
    }

    /** Creates the exception with its cause. */
    public OperationFailedException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, ADVICE, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public OperationFailedException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, false, cause);
    }
}
