package io.idempotent.runtime.internal.store;

/**
 * One running attempt's lease to renew, named as every write of a running attempt names it: the
 * operation, the attempt's lease token and its attempt id (the token alone does not fence, see
 * {@link OperationStore}).
 */
public record LeaseRenewal(String tool, String key, long leaseToken, String attemptId) {
}
