package io.idempotent.mcp;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The downstream double: counts the requests it receives and the refunds it makes separately,
 * and deduplicates by the idempotency key it is given (as a real payment provider does).
 */
public final class PaymentProvider {

    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger effects = new AtomicInteger();
    private final Map<String, String> refunds = new ConcurrentHashMap<>();
    private final java.util.Set<String> threads = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Hold> hold = new AtomicReference<>();
    private final java.util.concurrent.atomic.AtomicBoolean declineNext = new java.util.concurrent.atomic.AtomicBoolean();

    /** The provider's proof that a refund was not made (it declined before doing anything). */
    public static final class Declined extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Declined() {
            super("the provider declined the refund; nothing was refunded");
        }
    }

    /** The next refund (after its hold, if any) is declined: nothing is refunded. */
    public void declineNextRefund() {
        declineNext.set(true);
    }

    /** Holds the next refund inside the provider (the tool body) until the test releases it. */
    public static final class Hold {
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        /** Waits (with a deadline) until a refund is inside the provider. */
        public void awaitEntered() throws InterruptedException {
            if (!entered.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("no refund reached the provider within 30 s");
            }
        }

        /** Lets the held refund go on. */
        public void release() {
            released.countDown();
        }

        private void enterAndWait() {
            entered.countDown();
            try {
                if (!released.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test did not release the held refund within 30 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** The next refund waits inside the provider until the returned hold is released. */
    public Hold holdNextRefund() {
        Hold next = new Hold();
        hold.set(next);
        return next;
    }

    /** Refunds once per idempotency key and returns the refund id. */
    public String refund(String idempotencyKey, String invoiceId, long amountCents) {
        Hold held = hold.getAndSet(null);
        if (held != null) {
            held.enterAndWait();
        }
        if (declineNext.getAndSet(false)) {
            throw new Declined();
        }
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
