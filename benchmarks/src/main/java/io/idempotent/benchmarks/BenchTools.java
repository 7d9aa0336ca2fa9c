package io.idempotent.benchmarks;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

/** The measured tool: its body is trivial, so what is measured is the wrapping and the protocol. */
public class BenchTools {

    /** A result worth storing. */
    public record Receipt(String orderId, long cents) {
    }

    /** Wrapped by the agent when the JVM runs with it. */
    @IdempotentTool(key = "bench:{orderId}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.NEVER)
    public Receipt charge(String orderId, long cents) {
        return new Receipt(orderId, cents);
    }

    /** The same body, never wrapped: the baseline. */
    public Receipt chargePlain(String orderId, long cents) {
        return new Receipt(orderId, cents);
    }

    /**
     * A tool with a three-argument payload: the store benchmarks call it through the runtime's
     * public API with its generated binding ({@code BenchTools_IdempotentTools.REFUND}), the
     * in-process benchmark through the agent.
     */
    @IdempotentTool(key = "refund:{invoiceId}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.NEVER)
    public Receipt refund(String invoiceId, long cents, String currency) {
        return refundPlain(invoiceId, cents, currency);
    }

    /** The body of {@link #refund}, never wrapped. */
    public Receipt refundPlain(String invoiceId, long cents, String currency) {
        return new Receipt(invoiceId, cents);
    }
}
