package io.idempotent.runtime;

/**
 * The rendered operation key is not acceptable (longer than 512 characters, or with control characters). Nothing was claimed.
 */
public class InvalidOperationKeyException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public InvalidOperationKeyException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, null, null);
    }

    /** Creates the exception with its cause. */
    public InvalidOperationKeyException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, null, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public InvalidOperationKeyException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, false, cause);
    }
}
