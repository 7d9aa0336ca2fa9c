package io.idempotent.runtime.internal.store;

import java.time.Duration;

/**
 * What a fresh claim inserts: the key, its tool and payload, the lease and retention, and
 * whether the effect counts as started from the first moment of the body. The same row records
 * {@code attemptId} as the attempt running the body.
 */
public record ClaimRequest(String attemptId, String key, String tool, String payloadHash, String payloadJson,
        Duration lease, Duration retention, boolean effectStartsWithBody) {
}
