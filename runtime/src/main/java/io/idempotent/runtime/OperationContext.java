package io.idempotent.runtime;

import io.idempotent.runtime.internal.CurrentAttempt;

/**
 * The operation that the current thread's tool body is running: its key (to pass to the
 * downstream as the idempotency key) and the effect boundary.
 *
 * <pre>{@code
 * OperationContext op = OperationContext.current();
 * String requestId = "refund-" + op.key();
 * op.effectStarting(requestId);          // durable, fenced by the lease
 * return provider.refund(invoiceId, amount, op.key());
 * }</pre>
 */
public interface OperationContext {

    /**
     * The operation of the tool body running on this thread (the innermost one, when tools nest).
     *
     * @throws IllegalStateException outside a tool body
     */
    static OperationContext current() {
        return CurrentAttempt.require();
    }

    /** The operation key; pass it to a downstream that deduplicates keys. */
    String key();

    /** The tool's name. */
    String tool();

    /** The unique id of this attempt (one per execution of the body). */
    String attemptId();

    /** Which attempt this is for the key: 1 for the first execution, 2 after a retry, and so on. */
    int attempt();

    /**
     * Marks the effect boundary: the body is about to start the external effect, under the given
     * downstream request id (kept for the reconciler and the incident review). A durable write,
     * fenced by this attempt's lease token: it succeeds only while this attempt still owns an
     * unexpired lease. With {@code EffectBoundary.MARKED}, a failure before this call is safe to
     * retry.
     *
     * @param downstreamRequestId the id under which the downstream will know the request, or null
     * @throws LeaseLostException if this attempt lost its lease: the body must not start the effect
     */
    void effectStarting(String downstreamRequestId);
}
