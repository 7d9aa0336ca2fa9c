package io.idempotent.runtime;

/**
 * A payload argument could not be turned into canonical JSON, so no payload hash exists and nothing was claimed.
 */
public class PayloadNotSerializableException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public PayloadNotSerializableException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, null, null);
    }

    /** Creates the exception with its cause. */
    public PayloadNotSerializableException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, null, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public PayloadNotSerializableException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, false, cause);
    }
}
