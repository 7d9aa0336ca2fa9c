package io.idempotent.runtime;

import java.time.Instant;

/**
 * One operation that waits for a person's decision, as {@link Approvals#pending} lists it. The
 * payload is what the approver decides on: show it to the operator only (it may hold personal
 * data), never to a model or a log.
 *
 * @param tool the tool's name
 * @param key the operation key
 * @param payloadHash the SHA-256 of the canonical payload: a grant or denial names it, so that it
 *     decides exactly what the operator saw
 * @param payloadJson the canonical payload (JSON)
 * @param step the workflow step that asked ({@code Step.currentKey()} of the call), or null
 * @param requestedBy the process that asked (host and process id of its JVM)
 * @param requestedAt when the first call recorded the request (database clock)
 * @param expiredGrant whether an operator granted it before and the grant expired unused; then
 *     {@code decidedBy} names that operator
 * @param decidedBy who granted the expired grant, or null
 */
public record PendingApproval(String tool, String key, String payloadHash, String payloadJson, String step,
        String requestedBy, Instant requestedAt, boolean expiredGrant, String decidedBy) {
}
