package io.idempotent.runtime;

/**
 * How many operations of one tool are in one status: a row of the operator's statistics.
 *
 * @param tool the tool's name
 * @param status the status
 * @param count how many operations
 */
public record OperationCount(String tool, OperationStatus status, long count) {
}
