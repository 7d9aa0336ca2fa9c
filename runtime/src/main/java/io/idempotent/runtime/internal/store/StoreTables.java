package io.idempotent.runtime.internal.store;

/**
 * The names that more than one part of the store writes into its SQL: the attempt log's table,
 * view, columns and order, and the condition that names one operation. The schema's check
 * ({@link StoreSchema}) reads the same names, so a statement and the check cannot disagree.
 */
final class StoreTables {

    /** The attempt log's past rows; the view {@code tool_operation_attempts} adds each record's own attempt. */
    static final String LOG = "tool_operation_attempt_log";

    /** The attempt log as it is read: past rows and the attempt on each record, in order. */
    static final String ATTEMPTS_VIEW = "tool_operation_attempts";

    /** The columns of a row of the attempt log that the store writes (its id is generated). */
    static final String LOG_COLUMNS = "attempt_id, tool, operation_key, outcome, lease_token, payload_hash,"
            + " downstream_id, detail, started_at, ended_at";

    /** The order of the attempt log: a record's own attempt after past rows of the same instant. */
    static final String LOG_ORDER = "started_at, latest, id";

    /**
     * The operations in progress or awaiting reconciliation, one row each while they are
     * (PostgreSQL, {@link Dialect#keepsOpenOperations()}): keyed by (tool, operation_key), indexed
     * by (status, created_at).
     */
    static final String OPEN = "tool_operations_open";

    /** The condition that names one operation. */
    static final String ID = "tool = ? AND operation_key = ?";

    /**
     * The columns a change of an operation's row returns: the row as the change left it (the
     * claim's and the state machine's statements).
     */
    static final String ROW_AFTER = "lease_token, attempts, lease_until";

    /**
     * An open row written for a key replaces one left behind by a record deleted by hand (the
     * purge deletes only ended records, which have none), so that the key can be claimed again.
     */
    static final String REPLACING_OPEN_ROW = " ON CONFLICT ON CONSTRAINT tool_operations_open_pk DO UPDATE"
            + " SET status = EXCLUDED.status, created_at = EXCLUDED.created_at";

    /**
     * The approval requests and decisions, one row per operation of a tool that needs approval
     * (H2's V2, PostgreSQL's V3; it marks that migration applied).
     */
    static final String APPROVALS = "tool_operation_approvals";

    /** The columns of {@link #APPROVALS}. */
    static final String APPROVAL_COLUMNS = "tool, operation_key, requested_step, requested_by, requested_at,"
            + " validity_ms, decision, decided_by, decision_reason, decided_at";

    /**
     * The outbox: the messages tool bodies sent, written with their operation's completion (H2's V3,
     * PostgreSQL's V4; it marks that migration applied). Written only by {@link OutboxRows}.
     */
    static final String OUTBOX = "tool_operation_outbox";

    /** The columns of {@link #OUTBOX} that the store reads and writes. */
    static final String OUTBOX_COLUMNS = "id, tool, operation_key, seq, destination, message, status, attempts,"
            + " claim_token, claimed_by, claimed_until, next_attempt_at, last_state, created_at, delivered_at";

    private StoreTables() {
    }
}
