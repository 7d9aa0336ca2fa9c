package io.idempotent.runtime;

/**
 * The operation key was already used with a different payload (other arguments). Never retried: either the caller meant a new operation (it needs a new key) or the arguments changed by mistake.
 */
public class PayloadConflictException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What to do, unless the thrower says more precisely. */
    static final String ADVICE = "The call is rejected and not retried. If the arguments really changed, the call is a new "
            + "decision that needs its own operation key; if they did not, compare this call's "
            + "arguments with the stored payload (the command line's show TOOL KEY, the web console, or "
            + "Operations.find) and report the difference as a bug";

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public PayloadConflictException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, ADVICE, null);
    }

    /** Creates the exception with its cause. */
    public PayloadConflictException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, ADVICE, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public PayloadConflictException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, false, cause);
    }
}
