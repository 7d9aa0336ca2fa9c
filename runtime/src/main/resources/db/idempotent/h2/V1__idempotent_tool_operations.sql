-- Idempotent tools: operation records and the attempt log (H2 2.x).
-- Usable as a Flyway or Liquibase (sql format) migration, or applied by the runtime with
-- store.schema=create. Every statement is idempotent.

CREATE TABLE IF NOT EXISTS tool_operations (
    operation_key   VARCHAR(512)             NOT NULL,
    tool            VARCHAR(200)             NOT NULL,
    payload_hash    CHAR(64)                 NOT NULL,
    payload_json    CLOB                     NOT NULL,
    status          VARCHAR(32)              NOT NULL,
    lease_token     BIGINT                   NOT NULL,
    lease_until     TIMESTAMP WITH TIME ZONE,
    effect_started  BOOLEAN                  NOT NULL,
    downstream_id   VARCHAR(512),
    result_json     CLOB,
    error_json      CLOB,
    attempts        INTEGER                  NOT NULL,
    released_by     VARCHAR(200),
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    -- How long a finished record is kept: every ending (completion, failure, settlement) sets
    -- expires_at to its own time plus this, so an incident's log outlives its ending.
    retention_ms    BIGINT                   NOT NULL,
    -- The attempt that last ran the body, kept on the record so that a fresh call writes one row
    -- when it claims and changes it when it ends. A take-over moves it to
    -- tool_operation_attempt_log; the view tool_operation_attempts shows both.
    attempt_id            VARCHAR(64),
    attempt_outcome       VARCHAR(32),
    attempt_token         BIGINT,
    attempt_downstream_id VARCHAR(512),
    attempt_detail        CLOB,
    attempt_started_at    TIMESTAMP WITH TIME ZONE,
    attempt_ended_at      TIMESTAMP WITH TIME ZONE,
    -- An operation is a tool's key: two tools whose keys render the same text never share one.
    CONSTRAINT tool_operations_pk PRIMARY KEY (tool, operation_key),
    -- = ANY(ARRAY[...]), not IN (...): H2 2.4.240 evaluates an IN list of constants with the session
    -- that created it, so once that session closed (a pool retired it) every insert failed the check.
    CONSTRAINT tool_operations_status_ck
        CHECK (status = ANY(ARRAY['in_progress', 'completed', 'needs_reconciliation', 'failed_safe']))
);

-- The primary key serves every call; these serve the operator's lookups by state and the purge
-- (H2 has no partial indexes).
CREATE INDEX IF NOT EXISTS tool_operations_status_idx ON tool_operations (status, created_at);
CREATE INDEX IF NOT EXISTS tool_operations_expires_idx ON tool_operations (expires_at);

-- The attempt log's past rows: every attempt that a take-over replaced on its record, and every
-- call that was answered without running the body (a replay, a conflict, "in progress", a
-- reconciliation, an operator's settlement).
CREATE TABLE IF NOT EXISTS tool_operation_attempt_log (
    id              BIGINT GENERATED ALWAYS AS IDENTITY,
    -- One call of the tool. A call that decides in several steps (a lease found expired, then
    -- reconciled) leaves one row per step under the same attempt_id.
    attempt_id      VARCHAR(64)              NOT NULL,
    operation_key   VARCHAR(512)             NOT NULL,
    tool            VARCHAR(200)             NOT NULL,
    outcome         VARCHAR(32)              NOT NULL,
    lease_token     BIGINT                   NOT NULL,
    payload_hash    CHAR(64),
    downstream_id   VARCHAR(512),
    detail          CLOB,
    started_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    ended_at        TIMESTAMP WITH TIME ZONE,
    -- The key first: one index finds an operation's rows (reads, purge) and is the primary key,
    -- so each answer written updates one index, not two.
    CONSTRAINT tool_operation_attempt_log_pk PRIMARY KEY (tool, operation_key, id)
);

-- The attempt log as operators read it: one row per call of an operation, its past rows and the
-- attempt kept on its record (latest = TRUE, no id). Order by started_at, latest, id.
CREATE OR REPLACE VIEW tool_operation_attempts AS
    SELECT id, attempt_id, operation_key, tool, outcome, lease_token, payload_hash, downstream_id, detail,
            started_at, ended_at, FALSE AS latest
        FROM tool_operation_attempt_log
    UNION ALL
    SELECT CAST(NULL AS BIGINT), attempt_id, operation_key, tool, attempt_outcome, attempt_token, payload_hash,
            attempt_downstream_id, attempt_detail, attempt_started_at, attempt_ended_at, TRUE
        FROM tool_operations WHERE attempt_id IS NOT NULL;
