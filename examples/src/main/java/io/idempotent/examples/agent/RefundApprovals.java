package io.idempotent.examples.agent;

import io.idempotent.runtime.Approvals;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.PendingApproval;
import java.util.List;

/**
 * The desk's own approval channel (a chat message with two buttons), beside {@code idem approve}
 * and the web console: it shows a waiting refund to the approver and records the decision, bound
 * to the payload hash of what the approver was shown.
 */
public final class RefundApprovals {

    private final Approvals approvals;

    /** The channel over {@code runtime}'s approval queue. */
    public RefundApprovals(IdempotentRuntime runtime) {
        this.approvals = runtime.approvals();
    }

    /** The large refunds that wait for a person, the oldest first: what the approvers' chat shows. */
    public List<PendingApproval> waiting() {
        return approvals.pending("default", "issue_large_refund", 0, 20);
    }

    /** The approver pressed "Approve" on {@code request}, whose payload they were shown. */
    public void approve(PendingApproval request, String approver, String reason) {
        approvals.grant(request.tool(), request.key(), request.payloadHash(), approver, reason);
    }

    /** The approver pressed "Decline" on {@code request}. */
    public void decline(PendingApproval request, String approver, String reason) {
        approvals.deny(request.tool(), request.key(), request.payloadHash(), approver, reason);
    }
}
