package io.idempotent.runtime.testing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A downstream test double that counts provider invocations (every request that reached it) and
 * business effects (requests that changed something) separately. With idempotency keys it
 * behaves like a real payment provider: the first answer per key is stored and returned to
 * repeats, which are invocations but not effects.
 */
public final class FakeProvider {

    private final AtomicInteger invocations = new AtomicInteger();
    private final AtomicInteger effects = new AtomicInteger();
    private final Map<String, String> answers = new ConcurrentHashMap<>();

    /** A request without an idempotency key: every invocation is an effect. */
    public String apply(String what) {
        invocations.incrementAndGet();
        effects.incrementAndGet();
        return "done:" + what;
    }

    /** A request with an idempotency key: only the first invocation per key is an effect. */
    public String apply(String idempotencyKey, String what) {
        invocations.incrementAndGet();
        return answers.computeIfAbsent(idempotencyKey, k -> {
            effects.incrementAndGet();
            return "done:" + what;
        });
    }

    /** Whether an effect under {@code idempotencyKey} happened (what a reconciler would ask). */
    public boolean applied(String idempotencyKey) {
        return answers.containsKey(idempotencyKey);
    }

    /** Requests that reached the provider. */
    public int invocations() {
        return invocations.get();
    }

    /** Requests that changed something. */
    public int effects() {
        return effects.get();
    }
}
