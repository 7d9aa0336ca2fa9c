package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.OperationStatus;
import java.time.Duration;

/**
 * A conditional take-over of an existing operation by a new attempt: it succeeds only if the row
 * is still exactly as observed ({@code expectedStatus}, {@code expectedToken}) and, for an
 * expired lease, still expired and (when required) with its effect not started, by the
 * database's clock at the moment of the update. A take-over that succeeds moves the attempt on
 * the record to the attempt log and puts {@code attemptId}, running, in its place. With
 * {@code createdWithin} (null for none), only while the operation was first claimed less than
 * that long ago, by the database's clock.
 */
public record Takeover(String attemptId, String tool, String key,
        OperationStatus expectedStatus, long expectedToken, boolean requireExpiredLease,
        boolean requireEffectNotStarted, Duration lease, Duration retention, boolean effectStartsWithBody,
        Duration createdWithin) {

    /** A take-over with no condition on the operation's age. */
    public Takeover(String attemptId, String tool, String key, OperationStatus expectedStatus,
            long expectedToken, boolean requireExpiredLease, boolean requireEffectNotStarted, Duration lease,
            Duration retention, boolean effectStartsWithBody) {
        this(attemptId, tool, key, expectedStatus, expectedToken, requireExpiredLease,
                requireEffectNotStarted, lease, retention, effectStartsWithBody, null);
    }
}
