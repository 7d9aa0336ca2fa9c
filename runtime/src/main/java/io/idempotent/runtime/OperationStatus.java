package io.idempotent.runtime;

/** The state of one operation key in the store (column {@code status}). */
public enum OperationStatus {
    /** An attempt holds the lease and may be running the body. */
    IN_PROGRESS("in_progress"),
    /** The operation finished; its result is replayed to every duplicate. */
    COMPLETED("completed"),
    /** The effect may or may not have happened; the reconciler or a person decides. */
    NEEDS_RECONCILIATION("needs_reconciliation"),
    /** The last attempt failed before any effect could begin: safe to try again. */
    FAILED_SAFE("failed_safe"),
    /**
     * The tool needs a person's approval ({@code Approval.REQUIRED}) and none is valid: the body
     * has not run. Calls are answered {@link ApprovalPendingException}; see {@link Approvals}.
     */
    AWAITING_APPROVAL("awaiting_approval"),
    /**
     * An operator granted the operation: the next call with the same payload runs the body, if it
     * comes before the grant expires ({@link OperationRecord#leaseUntil()} holds the grant's end).
     */
    APPROVED("approved"),
    /** An operator denied the operation: a final outcome, answered {@link ApprovalDeniedException}. */
    DENIED("denied");

    private final String column;

    OperationStatus(String column) {
        this.column = column;
    }

    /** The value stored in the {@code status} column. */
    public String column() {
        return column;
    }

    /** The status stored as {@code value}. */
    public static OperationStatus fromColumn(String value) {
        for (OperationStatus s : values()) {
            if (s.column.equals(value)) {
                return s;
            }
        }
        throw new IllegalStateException("unknown operation status in the store: " + value);
    }
}
