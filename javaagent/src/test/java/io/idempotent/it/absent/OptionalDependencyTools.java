package io.idempotent.it.absent;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.it.probe.ProbeTools;
import io.idempotent.runtime.ManualReview;

/**
 * A tool whose return type the forked test leaves off the class path: Byte Buddy then fails to
 * transform this class. Its body records its effect before it needs {@link Receipt}, so a body
 * that ran unwrapped leaves a line in the effect file.
 */
public class OptionalDependencyTools {

    /** Issues a receipt for {@code orderId}. */
    @IdempotentTool(key = "receipt:{orderId}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.NEVER, name = "probe_receipt")
    public Receipt receipt(String orderId) {
        ProbeTools.recordEffect("receipt " + orderId);
        return new Receipt(orderId);
    }
}
