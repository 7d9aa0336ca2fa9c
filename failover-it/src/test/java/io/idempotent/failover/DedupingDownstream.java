package io.idempotent.failover;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A payment provider double that deduplicates by the idempotency key it is given, as a real one
 * does within its retention: the first request of a key applies a refund, a repeat gets the
 * first refund's id back. It counts both, so a test sees repeats that did no harm.
 */
final class DedupingDownstream {

    private final Map<String, String> refunds = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final AtomicInteger applied = new AtomicInteger();
    private final AtomicInteger ids = new AtomicInteger();

    /** Refunds once per key; returns the refund's id. */
    String refund(String idempotencyKey) {
        requests.computeIfAbsent(idempotencyKey, k -> new AtomicInteger()).incrementAndGet();
        return refunds.computeIfAbsent(idempotencyKey, k -> {
            applied.incrementAndGet();
            return "rf-" + ids.incrementAndGet();
        });
    }

    /** Refunds applied (one per key at most, by construction of a deduplicating provider). */
    int applied() {
        return applied.get();
    }

    /** Keys the provider was asked for more than once: repeats its deduplication absorbed. */
    long repeatedKeys() {
        return requests.values().stream().filter(n -> n.get() > 1).count();
    }
}
