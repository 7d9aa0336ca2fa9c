package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.internal.Redacted;
import java.time.Instant;

/**
 * A row to add to {@code tool_operation_attempt_log}: a call answered without running the body,
 * or an operator's settlement. A running attempt is never one: it lives on its operation's record.
 * {@code at} is when the call was decided (the database's time of the read it was decided on),
 * or null for "now, by the database's clock, when the row is written".
 */
public record AttemptRow(String attemptId, String key, String tool, AttemptOutcome outcome, long leaseToken,
        String payloadHash, String downstreamId, String detail, Instant at) {

    /** The names and outcome; the detail by size only (it may quote an error body or a reconciler's words). */
    @Override
    public String toString() {
        return "AttemptRow[attemptId=" + attemptId + ", tool=" + tool + ", key=" + key + ", outcome=" + outcome
                + ", leaseToken=" + leaseToken + ", downstreamId=" + downstreamId + ", detail="
                + Redacted.size(detail) + ", at=" + at + "]";
    }
}
