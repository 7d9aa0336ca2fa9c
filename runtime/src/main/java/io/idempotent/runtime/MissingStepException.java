package io.idempotent.runtime;

/**
 * The operation key needs {@code {step}} and no step was given: neither the framework's context
 * (for MCP, the request's {@code _meta} entry {@link Step#CONTEXT_KEY}) nor the thread's
 * {@link Step}. A {@link MissingOperationKeyException} with the same text for Java callers; its
 * own type lets an adapter tell the remote caller what to send ({@code missing_step} on MCP).
 * Nothing was claimed and the body did not run.
 */
public class MissingStepException extends MissingOperationKeyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code detail} says where the step was looked for. */
    public MissingStepException(String tool, String detail) {
        super(tool, detail);
    }
}
