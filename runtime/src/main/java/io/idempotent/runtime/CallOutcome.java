package io.idempotent.runtime;

/** How one call of a tool was answered: what {@link MetricsListener#answered} reports. */
public enum CallOutcome {
    /** The call claimed the key and ran the body. */
    EXECUTED,
    /** The call was answered with the stored (or reconciled) result; the body did not run. */
    REPLAYED,
    /** Same key, different payload: rejected. */
    PAYLOAD_CONFLICT,
    /** Another attempt holds the lease: wait and call again. */
    IN_PROGRESS,
    /** The effect may or may not have happened: the operation waits for reconciliation. */
    NEEDS_RECONCILIATION,
    /** An earlier attempt failed and the tool's retry policy does not run it again. */
    REFUSED,
    /** The store could not be reached: nothing was claimed, the body did not run. */
    STORE_UNAVAILABLE,
    /** The operation awaits a person's approval: the body did not run; call again after the decision. */
    AWAITING_APPROVAL,
    /** An operator denied the operation: the body did not run and will not. */
    APPROVAL_DENIED,
    /** The call itself is wrong (missing key, no binding, payload that cannot be hashed, bad configuration). */
    REJECTED;

    /** The outcome of a call that {@code failure} refused. */
    public static CallOutcome of(IdempotencyException failure) {
        if (failure instanceof PayloadConflictException) {
            return PAYLOAD_CONFLICT;
        }
        if (failure instanceof OperationInProgressException) {
            return IN_PROGRESS;
        }
        if (failure instanceof NeedsReconciliationException) {
            return NEEDS_RECONCILIATION;
        }
        if (failure instanceof OperationFailedException) {
            return REFUSED;
        }
        if (failure instanceof ApprovalPendingException) {
            return AWAITING_APPROVAL;
        }
        if (failure instanceof ApprovalDeniedException) {
            return APPROVAL_DENIED;
        }
        if (failure instanceof StoreUnavailableException) {
            return STORE_UNAVAILABLE;
        }
        return REJECTED;
    }
}
