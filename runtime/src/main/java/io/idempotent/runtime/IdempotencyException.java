package io.idempotent.runtime;

/**
 * The root of every exception the runtime throws on its own account (the tool body's own
 * exceptions reach the caller unchanged). Each says whether the caller may retry the same call
 * with the same operation key.
 */
public abstract class IdempotencyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String tool;
    private final String operationKey;

    /**
     * @param tool the tool's name, or null when not known yet
     * @param operationKey the operation key, or null when it could not be rendered
     */
    protected IdempotencyException(String tool, String operationKey, String message, Throwable cause) {
        super(message, cause);
        this.tool = tool;
        this.operationKey = operationKey;
    }

    /**
     * Whether repeating the same call with the same key is safe and may succeed: true when
     * nothing was claimed or another attempt is still working; false when a repeat would get the
     * same answer until the arguments, the key or a person changes something.
     */
    public abstract boolean retryable();

    /** The tool's name, or null. */
    public String tool() {
        return tool;
    }

    /** The operation key, or null when it could not be rendered. */
    public String operationKey() {
        return operationKey;
    }
}
