package io.idempotent.runtime;

import java.time.Instant;

/**
 * One undelivered message of the outbox as an operator lists it ({@link Outbox#undelivered}):
 * where it goes and what the relay last knew, never its text.
 *
 * @param id the outbox row's id
 * @param tool the tool whose body sent it
 * @param operationKey the operation's key
 * @param sequence its place among the operation's messages, from 1
 * @param destination where it goes
 * @param status {@code pending}, {@code sending} (a relay holds it) or {@code needs_reconciliation}
 * @param attempts delivery attempts so far
 * @param createdAt when the operation's completion wrote it (the database's clock)
 * @param nextAttemptAt when a relay may try it next
 * @param lastState what the relay last knew of its delivery, or null before the first attempt
 */
public record OutboxEntry(long id, String tool, String operationKey, int sequence, String destination, String status,
        int attempts, Instant createdAt, Instant nextAttemptAt, String lastState) {
}
