package io.idempotent.it.probe;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import io.idempotent.runtime.OperationContext;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Mono;

/**
 * The asynchronous tools the forked JVMs call: the same downstream double as {@link ProbeTools}
 * (one line per effect in the shared file), the effect boundary marked by the body, and what each
 * body does next decided by {@link AsyncProbeHooks}.
 */
public class AsyncProbeTools {

    /** Charges {@code amountCents} for {@code orderId}; the value arrives when the downstream answers. */
    @IdempotentTool(key = "stage:{orderId}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, effectBoundary = EffectBoundary.MARKED, lease = "PT2S", name = "probe_stage_charge")
    public CompletableFuture<String> charge(String orderId, long amountCents) {
        if (AsyncProbeHooks.takeNestOnce()) {
            // A call of the same tool from inside its own body, on the runtime's thread: it must be
            // claimed like any other, not let through by the mark of the invocation it is in.
            AsyncProbeHooks.nested(charge(orderId, amountCents));
        }
        return AsyncProbeHooks.body("charge " + orderId + " " + amountCents, OperationContext.current());
    }

    /**
     * The same as a static method: the runtime invokes it again on its executor with no instance
     * (no {@code unreflectSpecial}).
     */
    @IdempotentTool(key = "static:{orderId}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, effectBoundary = EffectBoundary.MARKED, lease = "PT2S", name = "probe_static_charge")
    public static CompletableFuture<String> staticCharge(String orderId, long amountCents) {
        return AsyncProbeHooks.body("static " + orderId + " " + amountCents, OperationContext.current());
    }

    /** The same as a Reactor Mono: nothing happens until it is subscribed. */
    @IdempotentTool(key = "mono:{orderId}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, effectBoundary = EffectBoundary.MARKED, lease = "PT2S", name = "probe_mono_charge")
    public Mono<String> monoCharge(String orderId, long amountCents) {
        OperationContext attempt = OperationContext.current();
        return Mono.fromCompletionStage(() -> AsyncProbeHooks.body("mono " + orderId + " " + amountCents, attempt));
    }
}
