package io.idempotent.runtime.agent;

/**
 * A call the runtime answers without the body running on the caller's thread: a replay of the
 * stored result ({@link ReplayedCall}), or the stage or {@code Mono} of an asynchronous tool whose
 * body the runtime runs itself. The agent's enter advice skips the method body for every one of
 * these, and its exit advice returns {@link #exit}'s answer.
 */
public abstract class AnsweredCall extends ToolCall {

    /** For the runtime's own subclasses. */
    AnsweredCall() {
    }

    /** {@return what the method returns; the skipped body's {@code returned} and {@code thrown} are ignored} */
    @Override
    public abstract Object exit(Object returned, Throwable thrown);
}
