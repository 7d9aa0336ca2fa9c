-- Idempotent tools, second migration (PostgreSQL): completions become HOT updates.
-- Apply after V1 (Flyway or Liquibase, sql format), or let the runtime apply both with
-- store.schema=create. Every statement is idempotent. Stop every runtime of the previous version
-- before applying it: that version does not keep tool_operations_open.
--
-- Why: a completion changes status, and every index that can find the operations in progress
-- among the others reads status, so with V1's partial indexes no completion could be a HOT update
-- (each one wrote a new entry in every index). The looked-up states now live in a small table that
-- holds a row only while its operation is in one of them, and tool_operations keeps indexes only
-- on columns a completion leaves as they are: a completion changes no index of tool_operations.

-- One row per operation in progress or awaiting reconciliation, written in the same statement
-- as the record's change. Its primary key finds the row to remove (spread over the keys, so
-- concurrent claims and completions do not all write one index page); the state index serves
-- the lookups (by state, oldest first) and the gauge (a count by state).
CREATE TABLE IF NOT EXISTS tool_operations_open (
    tool            VARCHAR(200)             NOT NULL,
    operation_key   VARCHAR(512)             NOT NULL,
    status          VARCHAR(32)              NOT NULL,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT tool_operations_open_pk PRIMARY KEY (tool, operation_key),
    CONSTRAINT tool_operations_open_status_ck CHECK (status IN ('in_progress', 'needs_reconciliation'))
);
CREATE INDEX IF NOT EXISTS tool_operations_open_state_idx ON tool_operations_open (status, created_at);

-- The operations V1 left open.
INSERT INTO tool_operations_open (tool, operation_key, status, created_at)
    SELECT tool, operation_key, status, created_at FROM tool_operations
        WHERE status IN ('in_progress', 'needs_reconciliation')
    ON CONFLICT DO NOTHING;

-- The purge's index, over every record: expires_at is set when the key is claimed (the lease's
-- end plus the retention) and moves only when an ending comes later than that, so a completion
-- inside its lease leaves it as it is.
CREATE INDEX IF NOT EXISTS tool_operations_expiry_idx ON tool_operations (expires_at);

DROP INDEX IF EXISTS tool_operations_reconcile_idx;
DROP INDEX IF EXISTS tool_operations_running_idx;
DROP INDEX IF EXISTS tool_operations_expires_idx;
