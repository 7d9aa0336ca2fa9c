package io.idempotent.runtime.internal;

import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.store.OperationStore;
import java.lang.reflect.Type;

/**
 * The fixed facts of one call, as the engine's rooms are handed them: the store and policy of its
 * tool, its key, its canonical payload and that payload's hash, the attempt id it claims with, and
 * the type a replay reads the stored result into.
 */
record Call(OperationStore store, ToolPolicy policy, String key, String payloadHash, String payloadJson,
        String attemptId, Type resultType) {

    /** The payload by size only, without its hash: a low-entropy payload is guessed from its hash. */
    @Override
    public String toString() {
        return "Call[key=" + key + ", attemptId=" + attemptId + ", payload=" + Redacted.size(payloadJson)
                + ", resultType=" + resultType + "]";
    }
}
