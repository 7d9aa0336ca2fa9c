package io.idempotent.runtime;

/**
 * The body of a tool run through {@link IdempotentRuntime#call}: the code with the effect.
 *
 * @param <T> the result type
 * @param <X> the checked exception the body may throw (rethrown unchanged)
 */
@FunctionalInterface
public interface ToolBody<T, X extends Throwable> {

    /** Runs the effect and returns the result to store and replay. */
    T run() throws X;
}
