package io.idempotent.cli;

/**
 * An approval decision the operator reviewed in the console and has not confirmed yet, with the
 * payload hash of the payload the operator saw; it waits in {@link ConsoleConfirmations}, which
 * decides who may confirm it and when.
 */
record PendingDecision(String tool, String key, ApprovalDecisions.Decision decision, String payloadHash,
        String operator, String reason) {
}
