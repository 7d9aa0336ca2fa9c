package io.idempotent.runtime.internal;

import io.idempotent.runtime.Approvals;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.internal.store.ApprovalDecision;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/** The approval queue over the runtime's stores ({@link Approvals}). */
public final class ApprovalsView implements Approvals {

    private static final System.Logger LOG = System.getLogger(ApprovalsView.class.getName());

    private final Engine engine;
    private final MetricsListener metrics;

    /** The queue of {@code engine}'s stores, reporting decisions to {@code metrics}. */
    public ApprovalsView(Engine engine, MetricsListener metrics) {
        this.engine = engine;
        this.metrics = metrics;
    }

    @Override
    public List<PendingApproval> pending(String store, String tool, int offset, int limit) {
        AttemptPage.checkRange("the approval queue's", offset, limit);
        OperationStore s = engine.stores().get(store, "operator");
        // The queue's read records the grants that lapsed unused before it lists them (issue 48); one
        // that cannot write (a reviewer's read-only role) still lists them, and a call, a decision or
        // the purge records them later.
        try {
            s.expireLapsedGrants("the approval queue's read").forEach(metrics::approvalExpired);
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            LOG.log(System.Logger.Level.WARNING, "store " + store + ": the approval queue's read could not record the"
                    + " grants that expired unused (" + e.getClass().getSimpleName() + "); they are listed as"
                    + " expired, and the next call, decision or purge records them");
        }
        return s.pendingApprovals(tool, offset, limit);
    }

    @Override
    public Map<String, Long> countPending(String store) {
        return engine.stores().get(store, "operator").countPendingApprovals();
    }

    @Override
    public void grant(String store, String tool, String key, String payloadHash, String approver, String reason) {
        decide(store, tool, key, payloadHash, approver, reason, true);
        metrics.approvalGranted(tool);
    }

    @Override
    public void deny(String store, String tool, String key, String payloadHash, String approver, String reason) {
        decide(store, tool, key, payloadHash, approver, reason, false);
        metrics.approvalDenied(tool);
    }

    private void decide(String store, String tool, String key, String payloadHash, String approver, String reason,
            boolean granted) {
        Objects.requireNonNull(payloadHash, "payloadHash");
        if (approver == null || approver.isBlank()) {
            throw new IllegalArgumentException("tool " + tool + ": operation " + key + ": name the approver (who"
                    + " decides), for the attempt log");
        }
        requireFits(tool, key, "approver's name", "decided_by", approver);
        requireFits(tool, key, "reason", "decision_reason", reason);
        OperationStore s = engine.stores().get(store, "operator");
        StoredOperation op = s.find(tool, key).orElseThrow(() -> new IllegalStateException("tool " + tool
                + ": no operation " + key));
        if (!op.awaitsDecision()) {
            throw new IllegalStateException("tool " + tool + ": operation " + key + " is " + op.status().column()
                    + ", not awaiting_approval; it was decided already (idem show " + tool + " " + key
                    + " shows by whom)");
        }
        if (!op.payloadHash().equals(payloadHash)) {
            // Neither hash is said: the operator compares what the queue shows with what they saw.
            throw new IllegalArgumentException("tool " + tool + ": operation " + key + ": the payload hash given is"
                    + " not the stored one; the decision would cover arguments the approver did not see. Read the"
                    + " queue again (idem approvals) and decide on what it shows");
        }
        ApprovalDecision decision = new ApprovalDecision("operator-" + UUID.randomUUID(), tool, key, payloadHash,
                op.status(), op.leaseToken(), granted, approver, reason);
        if (!s.decideApproval(decision).applied()) {
            throw new IllegalStateException("tool " + tool + ": operation " + key + " changed while it was being"
                    + " decided (another operator decided it, or a call used an expired grant); read it again");
        }
        if (op.status() == OperationStatus.APPROVED) {
            metrics.approvalExpired(tool); // the store recorded the lapse before the decision
        }
    }

    private static void requireFits(String tool, String key, String what, String column, String value) {
        int max = StoreColumns.maxLength(column);
        if (value != null && value.length() > max) {
            throw new IllegalArgumentException("tool " + tool + ": operation " + key + ": the " + what + " has "
                    + value.length() + " characters; at most " + max + " fit the approval's record");
        }
    }
}
