package io.idempotent.runtime.internal.store;

/**
 * The end of a running attempt's row in the attempt log, written in the same statement (or
 * transaction) as the attempt's completion or failure.
 *
 * @param attemptId the attempt whose {@code RUNNING} row ends
 * @param downstreamId the downstream request id the body reported, or null to keep what is there
 * @param detail the error or note in words, or null
 */
public record AttemptEnd(String attemptId, String downstreamId, String detail) {
}
