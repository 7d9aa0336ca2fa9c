package io.idempotent.runtime.testing;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import io.idempotent.runtime.binding.ToolPolicy;
import java.time.Duration;

/** Policies for tests, named after what they show. */
public final class Policies {

    private Policies() {
    }

    /** A refund-like tool whose downstream deduplicates the key. */
    public static ToolPolicy.Builder downstreamKey(String name, Retry retry) {
        return ToolPolicy.builder(name).keyTemplate("test:{id}").downstreamKey(true)
                .downstreamRetention(Duration.ofDays(1)).retry(retry);
    }

    /** A tool without downstream deduplication, settled by a person. */
    public static ToolPolicy.Builder manualReview(String name, Retry retry) {
        return ToolPolicy.builder(name).keyTemplate("test:{id}").downstreamKey(false).retry(retry)
                .reconciler(ManualReview::new, ManualReview.class.getName());
    }

    /** A manual-review tool that marks its effect boundary. */
    public static ToolPolicy.Builder marked(String name, Retry retry) {
        return manualReview(name, retry).effectBoundary(EffectBoundary.MARKED);
    }
}
