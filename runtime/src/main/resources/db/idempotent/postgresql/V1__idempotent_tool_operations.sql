-- Idempotent tools: operation records and the attempt log (PostgreSQL).
-- Usable as a Flyway or Liquibase (sql format) migration, or applied by the runtime with
-- store.schema=create. Every statement is idempotent. The last statement creates the claim
-- function, whose dollar-quoted body holds semicolons: Flyway splits around it; with Liquibase give
-- it a changeset of its own with splitStatements:false.

CREATE TABLE IF NOT EXISTS tool_operations (
    operation_key   VARCHAR(512)             NOT NULL,
    tool            VARCHAR(200)             NOT NULL,
    payload_hash    CHAR(64)                 NOT NULL,
    payload_json    TEXT                     NOT NULL,
    status          VARCHAR(32)              NOT NULL,
    lease_token     BIGINT                   NOT NULL,
    lease_until     TIMESTAMP WITH TIME ZONE,
    effect_started  BOOLEAN                  NOT NULL,
    downstream_id   VARCHAR(512),
    result_json     TEXT,
    error_json      TEXT,
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
    attempt_detail        TEXT,
    attempt_started_at    TIMESTAMP WITH TIME ZONE,
    attempt_ended_at      TIMESTAMP WITH TIME ZONE,
    -- An operation is a tool's key: two tools whose keys render the same text never share one.
    CONSTRAINT tool_operations_pk PRIMARY KEY (tool, operation_key),
    CONSTRAINT tool_operations_status_ck
        CHECK (status IN ('in_progress', 'completed', 'needs_reconciliation', 'failed_safe'))
) WITH (fillfactor = 85);

-- Index diet: the primary key serves every call. The other indexes serve the operator's
-- lookups and the purge, each only over the rows in the state it looks for, and none of them
-- holds a column that a heartbeat or the effect boundary changes (lease_until, effect_started,
-- downstream_id, updated_at, the attempt's columns), so those updates can be HOT (no index touched). fillfactor leaves
-- room on each page for them (a PostgreSQL storage parameter).
CREATE INDEX IF NOT EXISTS tool_operations_reconcile_idx ON tool_operations (created_at)
    WHERE status = 'needs_reconciliation';
CREATE INDEX IF NOT EXISTS tool_operations_running_idx ON tool_operations (created_at)
    WHERE status = 'in_progress';
CREATE INDEX IF NOT EXISTS tool_operations_expires_idx ON tool_operations (expires_at)
    WHERE status IN ('completed', 'failed_safe');

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
    detail          TEXT,
    started_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    ended_at        TIMESTAMP WITH TIME ZONE,
    CONSTRAINT tool_operation_attempt_log_pk PRIMARY KEY (id)
) WITH (fillfactor = 85);

CREATE INDEX IF NOT EXISTS tool_operation_attempt_log_key_idx ON tool_operation_attempt_log (tool, operation_key);

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

-- The claim, one statement on every path: read the operation; when there is none, insert it,
-- with the attempt that now owns it RUNNING on its record. Reading first means that a replay, a payload
-- conflict or an "in progress" answer (the common repeat) runs one primary-key read and never
-- starts an INSERT, which costs PostgreSQL about twice a read even when it inserts nothing. Each
-- statement of a VOLATILE function takes a new snapshot, so a row that a concurrent claim
-- committed while this one ran is found by the next read. No row returned: a concurrent insert
-- kept conflicting without becoming visible; the runtime claims again. The result names the
-- table's columns but does not use its row type, so the tables can be dropped and made again. A
-- new operation's row comes back without its payload_json: the caller has just sent it.
CREATE OR REPLACE FUNCTION idempotent_claim(p_tool VARCHAR, p_key VARCHAR, p_payload_hash VARCHAR,
        p_payload_json TEXT, p_lease_ms BIGINT, p_effect_started BOOLEAN, p_retention_ms BIGINT,
        p_attempt_id VARCHAR)
    RETURNS TABLE (inserted BOOLEAN, operation_key VARCHAR, tool VARCHAR, status VARCHAR, payload_hash CHAR(64),
        payload_json TEXT, lease_token BIGINT, lease_until TIMESTAMP WITH TIME ZONE, effect_started BOOLEAN,
        downstream_id VARCHAR, result_json TEXT, error_json TEXT, attempts INTEGER, released_by VARCHAR,
        created_at TIMESTAMP WITH TIME ZONE, updated_at TIMESTAMP WITH TIME ZONE,
        expires_at TIMESTAMP WITH TIME ZONE)
    LANGUAGE plpgsql VOLATILE AS $claim$
#variable_conflict use_column
BEGIN
    FOR i IN 1..3 LOOP
        RETURN QUERY SELECT FALSE, t.operation_key, t.tool, t.status, t.payload_hash, t.payload_json, t.lease_token,
                t.lease_until, t.effect_started, t.downstream_id, t.result_json, t.error_json, t.attempts,
                t.released_by, t.created_at, t.updated_at, t.expires_at
            FROM tool_operations t WHERE t.tool = p_tool AND t.operation_key = p_key;
        IF FOUND THEN
            RETURN;
        END IF;
        RETURN QUERY WITH ins AS (
                INSERT INTO tool_operations (tool, operation_key, payload_hash, payload_json, status, lease_token,
                        lease_until, effect_started, attempts, created_at, updated_at, retention_ms, expires_at,
                        attempt_id, attempt_outcome, attempt_token, attempt_detail, attempt_started_at)
                    VALUES (p_tool, p_key, p_payload_hash, p_payload_json, 'in_progress', 1,
                        CURRENT_TIMESTAMP + p_lease_ms * INTERVAL '1 millisecond', p_effect_started, 1,
                        CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, p_retention_ms,
                        CURRENT_TIMESTAMP + p_retention_ms * INTERVAL '1 millisecond',
                        p_attempt_id, 'RUNNING', 1, 'attempt 1', CURRENT_TIMESTAMP)
                    ON CONFLICT ON CONSTRAINT tool_operations_pk DO NOTHING
                    RETURNING *)
            SELECT TRUE, n.operation_key, n.tool, n.status, n.payload_hash, CAST(NULL AS TEXT), n.lease_token,
                n.lease_until, n.effect_started, n.downstream_id, n.result_json, n.error_json, n.attempts,
                n.released_by, n.created_at, n.updated_at, n.expires_at
            FROM ins n;
        IF FOUND THEN
            RETURN;
        END IF;
    END LOOP;
    RETURN;
END
$claim$;
