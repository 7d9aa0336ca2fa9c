package io.idempotent.runtime.agent;

/**
 * One call of an instrumented tool method, between the agent's enter and exit advice. Returned
 * by {@link ToolDispatcher#enter}; a {@link ReplayedCall} means the body must be skipped.
 */
public abstract class ToolCall {

    /** For the runtime's own subclasses. */
    protected ToolCall() {
    }

    /**
     * Ends the call: stores the body's result, or classifies its failure, and returns what the
     * method returns. Called by the exit advice after the body ran (or was skipped).
     *
     * @param returned what the body returned (boxed; null for void or when it threw)
     * @param thrown what the body threw, or null
     * @return the method's result
     * @throws Throwable {@code thrown}, unchanged, after it was classified; or the runtime's own
     *     exception when the outcome could not be stored
     */
    public abstract Object exit(Object returned, Throwable thrown) throws Throwable;
}
