package io.idempotent.runtime.agent;

/**
 * A call answered without running the body: the stored (or reconciled) result is returned. The
 * agent's enter advice skips the method body when the dispatcher returns one of these.
 */
public final class ReplayedCall extends AnsweredCall {

    private final Object result;

    /** A replay of {@code result}. */
    public ReplayedCall(Object result) {
        this.result = result;
    }

    /** {@return the stored result; the skipped body's {@code returned} and {@code thrown} are ignored} */
    @Override
    public Object exit(Object returned, Throwable thrown) {
        return result;
    }
}
