package io.idempotent.examples.boot;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * The payment provider, in process: it deduplicates refunds by the idempotency key it is given
 * (as real providers do) and counts the requests it receives and the refunds it makes separately.
 */
@Component
public class PaymentProvider {

    /** The reply to a request was lost after the refund was made. */
    public static final class ReplyLost extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ReplyLost() {
            super("the provider's reply was lost");
        }
    }

    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger effects = new AtomicInteger();
    private final Map<String, String> refunds = new ConcurrentHashMap<>();
    private final AtomicBoolean loseNextReply = new AtomicBoolean();

    /** Refunds once per idempotency key; returns the refund id. */
    public String refund(String idempotencyKey, String invoiceId, long amountCents) {
        requests.incrementAndGet();
        String id = refunds.computeIfAbsent(idempotencyKey, k -> "re_" + effects.incrementAndGet() + "_" + invoiceId);
        if (loseNextReply.getAndSet(false)) {
            throw new ReplyLost();
        }
        return id;
    }

    /** The next request's reply is lost (after its effect). */
    public void loseNextReply() {
        loseNextReply.set(true);
    }

    public int requests() {
        return requests.get();
    }

    public int effects() {
        return effects.get();
    }
}
