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
    FAILED_SAFE("failed_safe");

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
