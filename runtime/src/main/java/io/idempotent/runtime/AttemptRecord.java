package io.idempotent.runtime;

import io.idempotent.runtime.internal.Redacted;
import java.time.Instant;

/**
 * One row of the attempt log: one call of the tool for this key and what it was answered.
 *
 * @param attemptId a unique id of the call
 * @param outcome what happened or what the call was answered
 * @param leaseToken the lease token the call held, or 0 when it held none
 * @param downstreamId the downstream request id the body reported, or null
 * @param detail the error, reason or answer in words, or null
 * @param startedAt when the call reached the store (database clock)
 * @param endedAt when its outcome was recorded (database clock), or null while running
 */
public record AttemptRecord(String attemptId, AttemptOutcome outcome, long leaseToken, String downstreamId,
        String detail, Instant startedAt, Instant endedAt) {

    /** Everything but the detail, which is given by its size: it may quote an error body or a reconciler's words. */
    @Override
    public String toString() {
        return "AttemptRecord[attemptId=" + attemptId + ", outcome=" + outcome + ", leaseToken=" + leaseToken
                + ", downstreamId=" + downstreamId + ", detail=" + Redacted.size(detail) + ", startedAt=" + startedAt
                + ", endedAt=" + endedAt + "]";
    }
}
