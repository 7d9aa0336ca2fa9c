package io.idempotent.runtime;

/**
 * The operation key could not be rendered: a placeholder's value is null, or the key needs
 * {@code {step}} and the workflow layer set no {@link Step}. Nothing was claimed and the body did
 * not run. Not retryable: the same call would miss the same part.
 */
public class MissingOperationKeyException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Whether the missing part is the workflow's step ({@link #stepMissing}). */
    private final boolean stepMissing;

    /** Creates the exception; {@code detail} says which part is missing. */
    public MissingOperationKeyException(String tool, String detail) {
        this(tool, detail, false);
    }

    private MissingOperationKeyException(String tool, String detail, boolean stepMissing) {
        super(tool, null, "cannot render the operation key: " + detail + "; nothing was claimed", null, false, null);
        this.stepMissing = stepMissing;
    }

    /**
     * The key needs {@code {step}} and no step was given: neither the framework's context (for
     * MCP, the request's {@code _meta} entry {@link Step#CONTEXT_KEY}) nor the thread's
     * {@link Step}. The same type and text for Java callers; {@link #stepMissing()} lets an
     * adapter tell a remote caller what to send ({@code missing_step} on MCP).
     */
    public static MissingOperationKeyException ofMissingStep(String tool, String detail) {
        return new MissingOperationKeyException(tool, detail, true);
    }

    /** Whether the key needs {@code {step}} and no step was given ({@link #ofMissingStep}). */
    public boolean stepMissing() {
        return stepMissing;
    }
}
