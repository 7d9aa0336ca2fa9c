package io.idempotent.runtime.testing;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.Invocation;
import io.idempotent.runtime.internal.RuntimeAccess;
import java.util.Map;

/** Workers that stall or die inside a body, for crash and fencing tests. */
public final class Workers {

    private Workers() {
    }

    /** Claims {@code key} as a worker would on entering the body; the test decides its fate. */
    public static Invocation.Execution enterBody(IdempotentRuntime runtime, ToolPolicy policy, String key,
            Map<String, ?> payload) {
        Invocation invocation = RuntimeAccess.engine(runtime).begin(policy, key, payload, String.class);
        if (!(invocation instanceof Invocation.Execution execution)) {
            throw new AssertionError("expected to claim " + key + ", got " + invocation);
        }
        return execution;
    }
}
