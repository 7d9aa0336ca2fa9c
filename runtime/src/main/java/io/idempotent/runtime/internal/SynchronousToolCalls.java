package io.idempotent.runtime.internal;

import io.idempotent.runtime.ToolBody;
import io.idempotent.runtime.binding.ToolPolicy;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Objects;

/**
 * Runs a tool call whose body returns its result, on the caller's thread: the claim's decision
 * ({@link Engine#begin}), then a replay's stored result, or the body with its outcome recorded
 * ({@link Invocation.Execution#succeeded}, or {@link Invocation.Execution#failed} and the body's
 * own exception rethrown unchanged). The synchronous twin of {@link AsyncToolCalls}; apart from
 * {@code IdempotentRuntime} so that the public class holds the API and none of the protocol. Not
 * for application code.
 */
public final class SynchronousToolCalls {

    private SynchronousToolCalls() {
    }

    /**
     * Calls the tool through {@code engine}.
     *
     * @param toolClass the class that declares the tool, or null for a policy of the caller's own
     * @return the body's result, or the stored (or reconciled) result of an earlier attempt
     * @throws X the body's own exception, unchanged, after it was classified
     */
    @SuppressWarnings("unchecked")
    public static <T, X extends Throwable> T run(Engine engine, ToolPolicy policy, String key, Map<String, ?> payload,
            Type resultType, Class<?> toolClass, ToolBody<T, X> body) throws X {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(resultType, "resultType");
        Objects.requireNonNull(body, "body");
        Invocation invocation = engine.begin(policy, key, payload, resultType, toolClass);
        if (invocation instanceof Invocation.Replay replay) {
            return (T) replay.result();
        }
        Invocation.Execution execution = (Invocation.Execution) invocation;
        T result;
        try {
            result = body.run();
        } catch (Throwable failure) {
            execution.failed(failure);
            throw failure;
        }
        return (T) execution.succeeded(result);
    }
}
