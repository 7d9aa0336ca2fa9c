package io.idempotent.runtime;

/**
 * The operation key could not be rendered: a placeholder's value is null, or the key needs
 * {@code {step}} and the workflow layer set no {@link Step}. Nothing was claimed and the body did
 * not run. Not retryable: the same call would miss the same part.
 */
public class MissingOperationKeyException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code detail} says which part is missing. */
    public MissingOperationKeyException(String tool, String detail) {
        super(tool, null, "cannot render the operation key: " + detail + "; nothing was claimed", null, false, null);
    }
}
