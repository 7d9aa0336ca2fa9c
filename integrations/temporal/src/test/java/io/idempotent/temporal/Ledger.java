package io.idempotent.temporal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The downstream double: a payment ledger with no idempotency key of its own, so every payment
 * it receives is an effect (a second one is a second refund). A test may hold the first payment's
 * reply, to let a Temporal timeout fire while the activity still runs.
 */
public final class Ledger {

    private final AtomicInteger effects = new AtomicInteger();
    private final CountDownLatch replyGate;

    /** A ledger that replies at once. */
    public Ledger() {
        this(0);
    }

    private Ledger(int held) {
        this.replyGate = new CountDownLatch(held);
    }

    /** A ledger that holds the reply of each payment until {@link #releaseReplies()}. */
    public static Ledger holdingReplies() {
        return new Ledger(1);
    }

    /** Pays a refund and returns its id. */
    public String pay(String invoiceId, long amountCents) {
        int n = effects.incrementAndGet();
        try {
            if (!replyGate.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the ledger's reply");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return "pay_" + n + "_" + invoiceId + "_" + amountCents;
    }

    /** Lets held replies go. */
    public void releaseReplies() {
        replyGate.countDown();
    }

    /** How many payments were made. */
    public int effects() {
        return effects.get();
    }
}
