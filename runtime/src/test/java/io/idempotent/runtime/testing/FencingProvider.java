package io.idempotent.runtime.testing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A downstream that checks fencing tokens, as a storage service or a lock-aware API can: per
 * resource it remembers the highest token it has seen and refuses a request that carries a lower
 * one (the request of a worker that stalled past its lease while a newer attempt went ahead).
 */
public final class FencingProvider {

    private final Map<String, Long> highest = new ConcurrentHashMap<>();
    private final AtomicInteger effects = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();

    /** Applies the request unless a request with a higher token was seen for {@code resource}. */
    public synchronized String apply(String resource, long token, String what) {
        long seen = highest.getOrDefault(resource, Long.MIN_VALUE);
        if (token < seen) {
            refused.incrementAndGet();
            throw new IllegalStateException("stale fencing token " + token + " < " + seen);
        }
        highest.put(resource, token);
        effects.incrementAndGet();
        return "done:" + what;
    }

    /** Requests that changed something. */
    public int effects() {
        return effects.get();
    }

    /** Requests refused for a stale token. */
    public int refused() {
        return refused.get();
    }
}
