package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.internal.Redacted;
import java.time.Instant;

/**
 * One row of {@code tool_operations} as read in a single statement, with the database's own
 * verdict on whether its lease has expired (so no decision uses the JVM's clock), and the
 * database's time of the read ({@code readAt}), which dates the answer a call is given from it.
 * {@code attemptId} is the attempt on the record (the one running, or the last that ran or asked
 * for approval), which fences that attempt's writes together with the lease token.
 */
public record StoredOperation(String key, String tool, OperationStatus status, String payloadHash, String payloadJson,
        long leaseToken, Instant leaseUntil, boolean leaseExpired, boolean effectStarted, String downstreamId,
        String resultJson, String errorJson, int attempts, String releasedBy, Instant createdAt, Instant updatedAt,
        Instant expiresAt, String attemptId, Instant readAt) {

    /**
     * Whether a person may decide this operation now: it awaits approval, or its grant lapsed
     * unused by the database's clock ({@link #leaseExpired}). The approval API decides by it, and
     * the console shows its approve and deny forms by it.
     */
    public boolean awaitsDecision() {
        return status == OperationStatus.AWAITING_APPROVAL || status == OperationStatus.APPROVED && leaseExpired;
    }

    /** The names, status and lease; the payload, result and error by size only (this reaches logs). */
    @Override
    public String toString() {
        return "StoredOperation[tool=" + tool + ", key=" + key + ", status=" + status + ", payload="
                + Redacted.size(payloadJson) + ", result=" + Redacted.size(resultJson) + ", error="
                + Redacted.size(errorJson) + ", leaseToken=" + leaseToken + ", leaseUntil=" + leaseUntil
                + ", leaseExpired=" + leaseExpired + ", effectStarted=" + effectStarted + ", attempts=" + attempts
                + ", attemptId=" + attemptId + ", readAt=" + readAt + "]";
    }
}
