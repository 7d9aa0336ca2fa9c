package io.idempotent.langchain4j;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The downstream double: counts the requests it receives and the refunds it makes separately,
 * and deduplicates by the idempotency key it is given (as a real payment provider does).
 */
public final class PaymentProvider {

    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger effects = new AtomicInteger();
    private final Map<String, String> refunds = new ConcurrentHashMap<>();
    private final java.util.Set<String> threads = ConcurrentHashMap.newKeySet();

    /** Refunds once per idempotency key and returns the refund id. */
    public String refund(String idempotencyKey, String invoiceId, long amountCents) {
        requests.incrementAndGet();
        threads.add(Thread.currentThread().getName());
        return refunds.computeIfAbsent(idempotencyKey, k -> {
            effects.incrementAndGet();
            return "re_" + effects.get() + "_" + invoiceId + "_" + amountCents;
        });
    }

    /** The threads the requests came from. */
    public java.util.Set<String> threads() {
        return java.util.Set.copyOf(threads);
    }

    public int requests() {
        return requests.get();
    }

    public int effects() {
        return effects.get();
    }
}
