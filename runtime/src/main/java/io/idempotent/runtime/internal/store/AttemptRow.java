package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.AttemptOutcome;
import java.time.Instant;

/**
 * A row to add to {@code tool_operation_attempts}; {@code ended} false for a running attempt.
 * {@code at} is when the call was decided (the database's time of the read it was decided on),
 * or null for "now, by the database's clock, when the row is written".
 */
public record AttemptRow(String attemptId, String key, String tool, AttemptOutcome outcome, long leaseToken,
        String payloadHash, String downstreamId, String detail, boolean ended, Instant at) {
}
