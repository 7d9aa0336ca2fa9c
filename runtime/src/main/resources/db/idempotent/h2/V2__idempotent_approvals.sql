-- Idempotent tools, second migration (H2 2.x): approval gates. Apply after V1 (Flyway or
-- Liquibase, sql format), or let the runtime apply both with store.schema=create.
--
-- An operation of a tool declared approval = REQUIRED is recorded as awaiting_approval by its first
-- call; an operator moves it to approved (lease_until then holds the grant's end) or denied. The
-- request and the decision are kept beside the record, one row per operation, and every decision is
-- also a row of the attempt log.

-- The statuses first: the approvals table marks the migration applied, so it comes last. The
-- check is = ANY(ARRAY[...]), not IN (...), for H2 2.4.240 (see V1).
ALTER TABLE tool_operations DROP CONSTRAINT IF EXISTS tool_operations_status_ck;
ALTER TABLE tool_operations ADD CONSTRAINT tool_operations_status_ck
    CHECK (status = ANY(ARRAY['in_progress', 'completed', 'needs_reconciliation', 'failed_safe', 'awaiting_approval',
        'approved', 'denied']));

CREATE TABLE IF NOT EXISTS tool_operation_approvals (
    tool             VARCHAR(200)             NOT NULL,
    operation_key    VARCHAR(512)             NOT NULL,
    -- The workflow step that asked (Step.currentKey() of the first call), and the process (pid@host).
    requested_step   VARCHAR(512),
    requested_by     VARCHAR(200)             NOT NULL,
    requested_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    -- How long a grant stays valid (the tool's approvalValidity when the request was recorded).
    validity_ms      BIGINT                   NOT NULL,
    -- The last decision: granted, denied, or expired (a grant that lapsed unused); NULL until one.
    decision         VARCHAR(16),
    decided_by       VARCHAR(200),
    decision_reason  VARCHAR(1000),
    decided_at       TIMESTAMP WITH TIME ZONE,
    CONSTRAINT tool_operation_approvals_pk PRIMARY KEY (tool, operation_key)
);
CREATE INDEX IF NOT EXISTS tool_operation_approvals_requested_idx ON tool_operation_approvals (requested_at);
