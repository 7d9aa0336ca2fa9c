-- Idempotent tools, third migration (H2 2.x): the outbox. Apply after V1 and V2 (Flyway or
-- Liquibase, sql format), or let the runtime apply them all with store.schema=create.
--
-- A tool body's OperationContext.send(destination, message) becomes one row here, written in the same
-- transaction as the operation's completion: no completion, no row. A relay (Outbox.relay) delivers
-- the rows of one operation in seq order to the application's OutboxSender, each with the operation
-- key as its idempotency key. A Debezium outbox event router can read this table instead (see
-- docs/outbox.md: id, operation_key, destination, message).

CREATE TABLE IF NOT EXISTS tool_operation_outbox (
    id              BIGINT GENERATED ALWAYS AS IDENTITY,
    tool            VARCHAR(200)             NOT NULL,
    operation_key   VARCHAR(512)             NOT NULL,
    -- The order of the operation's messages (1, 2, ...): a message waits until the ones before it are delivered.
    seq             INTEGER                  NOT NULL,
    destination     VARCHAR(200)             NOT NULL,
    message         CLOB                     NOT NULL,
    -- pending (to send), sending (a relay claimed it and may have sent it), delivered, or
    -- needs_reconciliation (the outcome of a send is unknown and the destination does not deduplicate).
    status          VARCHAR(24)              NOT NULL,
    -- Sends tried so far, and the relay's fencing counter (grows with every claim of the row).
    attempts        INTEGER                  NOT NULL,
    claim_token     BIGINT                   NOT NULL,
    claimed_by      VARCHAR(200),
    claimed_until   TIMESTAMP WITH TIME ZONE,
    next_attempt_at TIMESTAMP WITH TIME ZONE NOT NULL,
    -- What the relay last knew of the delivery (never the message or an answer's body).
    last_state      VARCHAR(1000),
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    delivered_at    TIMESTAMP WITH TIME ZONE,
    CONSTRAINT tool_operation_outbox_pk PRIMARY KEY (id),
    CONSTRAINT tool_operation_outbox_seq_uq UNIQUE (tool, operation_key, seq),
    -- = ANY(ARRAY[...]) rather than IN (...): H2 2.4 evaluates an IN list of a CHECK with the session
    -- that created it, and refuses every row once that session closed (see V1).
    CONSTRAINT tool_operation_outbox_status_ck CHECK (status = ANY(ARRAY['pending', 'sending', 'delivered',
        'needs_reconciliation']))
);
CREATE INDEX IF NOT EXISTS tool_operation_outbox_due_idx ON tool_operation_outbox (status, next_attempt_at);
