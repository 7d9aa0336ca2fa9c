package io.idempotent.runtime.internal;

import io.idempotent.runtime.Approvals;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.PendingApproval;
import java.util.List;
import java.util.Map;

/** The approval queue over the runtime's stores ({@link Approvals}). */
public final class ApprovalsView implements Approvals {

    private final Engine engine;
    private final MetricsListener metrics;

    /** The queue of {@code engine}'s stores, reporting decisions to {@code metrics}. */
    public ApprovalsView(Engine engine, MetricsListener metrics) {
        this.engine = engine;
        this.metrics = metrics;
    }

    @Override
    public List<PendingApproval> pending(String store, String tool, int offset, int limit) {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public Map<String, Long> countPending(String store) {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public void grant(String store, String tool, String key, String payloadHash, String approver, String reason) {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public void deny(String store, String tool, String key, String payloadHash, String approver, String reason) {
        throw new UnsupportedOperationException("not yet");
    }
}
