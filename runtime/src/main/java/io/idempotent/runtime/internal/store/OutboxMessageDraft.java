package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.internal.Redacted;

/**
 * A message a tool body sent ({@code OperationContext.send}), held by its attempt until the
 * completion writes it to the outbox in the completion's own transaction.
 *
 * @param destination where it goes
 * @param message its text
 */
public record OutboxMessageDraft(String destination, String message) {

    /** The destination; the message by size only. */
    @Override
    public String toString() {
        return "OutboxMessageDraft[destination=" + destination + ", message=" + Redacted.size(message) + "]";
    }
}
