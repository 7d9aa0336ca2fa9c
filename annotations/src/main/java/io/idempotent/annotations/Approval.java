package io.idempotent.annotations;

/**
 * Whether a person must approve an operation before its body runs ({@link IdempotentTool#approval()}).
 *
 * <p>The approval is bound to the operation: to the tool, the operation key and the hash of the
 * payload the approver saw. A call with other arguments under the same key is a payload conflict
 * and never inherits it, and the approved operation runs at most once, like any other.
 */
public enum Approval {

    /** No approval: the first call with a key claims it and runs the body. */
    NONE,

    /**
     * The first call with a key records the operation as awaiting approval and is answered, without
     * running the body, that a person must decide ({@code ApprovalPendingException}, retryable).
     * Once an operator grants it (the {@code idem approve} command, the web console or
     * {@code Approvals.grant}), the next call with the same key and payload runs the body, within
     * {@link IdempotentTool#approvalValidity()} of the grant; a denial is replayed to every call
     * ({@code ApprovalDeniedException}, not retryable).
     */
    REQUIRED
}
