package io.idempotent.runtime;

/**
 * What one call of a tool was answered, as kept in {@code tool_operation_attempts}: the row of
 * an attempt that ran the body, or of a call that was answered without running it.
 */
public enum AttemptOutcome {
    /** Claimed the key and is running the body (or died while running it). */
    RUNNING,
    /** Ran the body and stored its result. */
    COMPLETED,
    /** Ran the body, which failed before any effect could begin. */
    FAILED_SAFE,
    /** Ran the body, which failed after the effect may have begun. */
    NEEDS_RECONCILIATION,
    /** Ran the body but lost its lease, so its outcome was not stored. */
    LEASE_LOST,
    /** Was answered with the stored result. */
    REPLAYED,
    /** Was answered that another attempt holds the lease. */
    IN_PROGRESS,
    /** Was rejected: same key, different payload. */
    PAYLOAD_CONFLICT,
    /** Found the previous attempt's lease expired after its effect may have begun. */
    LEASE_EXPIRED,
    /** Ran the reconciler, which answered APPLIED; was answered with the reconciled result. */
    RECONCILED_APPLIED,
    /** Ran the reconciler, which answered NOT_APPLIED. */
    RECONCILED_NOT_APPLIED,
    /** Ran the reconciler, which answered UNKNOWN (or failed); was told to wait for a person. */
    RECONCILED_UNKNOWN,
    /** Was refused because the policy does not re-run a failed operation. */
    REFUSED,
    /** An operator settled the operation as applied. */
    SETTLED_APPLIED,
    /** An operator settled the operation as not applied. */
    SETTLED_NOT_APPLIED,
    /** Found a stored result that no longer reads into the return type. */
    NOT_REPLAYABLE,
    /** Recorded the operation as awaiting approval (the first call of a tool that needs one). */
    APPROVAL_REQUESTED,
    /** Was answered that the operation still awaits a person's approval. */
    AWAITING_APPROVAL,
    /** An operator granted the operation (the row names who and why). */
    APPROVAL_GRANTED,
    /** An operator denied the operation (the row names who and why). */
    APPROVAL_DENIED,
    /**
     * The grant expired before a call used it: the operation awaits approval again. Recorded once,
     * by whatever found it first: a call, a new decision (this row comes before it), the approval
     * queue's read or the purge; the detail says which.
     */
    APPROVAL_EXPIRED,
    /** Was answered with the operator's denial. */
    DENIED
}
