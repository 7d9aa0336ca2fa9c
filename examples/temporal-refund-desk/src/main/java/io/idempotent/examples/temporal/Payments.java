package io.idempotent.examples.temporal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in payment provider with no idempotency key of its own: every request it receives is a
 * refund, so only the operation record stands between Temporal's retries and a second refund.
 */
public final class Payments {

    private final AtomicInteger refunds = new AtomicInteger();

    /** Refunds and returns the refund's id. */
    public String refund(String invoiceId, long amountCents) {
        return "re_" + refunds.incrementAndGet() + "_" + invoiceId;
    }

    /** How many refunds were made. */
    public int refunds() {
        return refunds.get();
    }
}
