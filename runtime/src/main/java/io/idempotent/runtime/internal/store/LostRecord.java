package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.internal.Redacted;
import java.time.Duration;

/**
 * An operation record written again by the attempt that holds it, after one of its writes found
 * no row at all (a failover with asynchronous replication, or a restore from a backup, lost it).
 * It carries what the attempt knows: the payload, its own lease token and attempt number, and
 * how it ended ({@code status} completed, failed_safe or needs_reconciliation, with its result or
 * error) or that it still runs ({@code in_progress}, with a full {@code lease}).
 *
 * @param age how long ago the attempt's claim was sent: the record's creation is dated that much
 *     before now, so a re-send window is never judged from later than the first effect
 * @param detail the attempt's detail in the attempt log
 */
public record LostRecord(String tool, String key, String payloadHash, String payloadJson, OperationStatus status,
        long leaseToken, int attempts, Duration lease, Duration retention, Duration age, boolean effectStarted,
        String downstreamId, String resultJson, String errorJson, String attemptId, String detail) {

    /** Names, status and token; the payload, result and error by size only (this reaches logs). */
    @Override
    public String toString() {
        return "LostRecord[tool=" + tool + ", key=" + key + ", status=" + status.column() + ", leaseToken="
                + leaseToken + ", attempts=" + attempts + ", payload=" + Redacted.size(payloadJson) + ", result="
                + Redacted.size(resultJson) + ", error=" + Redacted.size(errorJson) + "]";
    }
}
