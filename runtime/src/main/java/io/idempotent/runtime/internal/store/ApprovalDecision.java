package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.OperationStatus;

/**
 * An operator's decision on an operation awaiting approval, guarded by the state the operator's
 * read found (an {@code approved} one only while its grant has lapsed).
 *
 * @param attemptId the attempt-log row's id
 * @param payloadHash the payload hash the approver saw (already checked against the record)
 * @param granted true: approved; false: denied
 * @param approver who decided
 * @param reason why (may be null)
 */
public record ApprovalDecision(String attemptId, String tool, String key, String payloadHash,
        OperationStatus expectedStatus, long expectedToken, boolean granted, String approver, String reason) {

    /** The decision's row in the attempt log: who and why. */
    String detail() {
        return (granted ? "granted by " : "denied by ") + approver + (reason == null || reason.isBlank() ? ""
                : ": " + reason);
    }
}
