package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.internal.Redacted;
import java.time.Duration;

/**
 * What a fresh claim inserts: the key, its tool and payload, the lease and retention, and
 * whether the effect counts as started from the first moment of the body. The same row records
 * {@code attemptId} as the attempt running the body.
 */
public record ClaimRequest(String attemptId, String key, String tool, String payloadHash, String payloadJson,
        Duration lease, Duration retention, boolean effectStartsWithBody) {

    /** The names and lease; the payload by size only (this reaches logs). */
    @Override
    public String toString() {
        return "ClaimRequest[attemptId=" + attemptId + ", tool=" + tool + ", key=" + key + ", payload="
                + Redacted.size(payloadJson) + ", lease=" + lease + ", retention=" + retention
                + ", effectStartsWithBody=" + effectStartsWithBody + "]";
    }
}
