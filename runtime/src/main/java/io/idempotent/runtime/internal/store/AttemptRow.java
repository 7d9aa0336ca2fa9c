package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.AttemptOutcome;

/** A row to add to {@code tool_operation_attempts}; {@code ended} false for a running attempt. */
public record AttemptRow(String attemptId, String key, String tool, AttemptOutcome outcome, long leaseToken,
        String payloadHash, String downstreamId, String detail, boolean ended) {
}
