package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.internal.Redacted;

/**
 * The end of the attempt that holds the lease, written on the operation's row by the same
 * statement as its completion or failure.
 *
 * @param downstreamId the downstream request id the body reported, or null to keep what is there
 * @param detail the error or note in words, or null
 * @param messages the messages the body sent ({@code OperationContext.send}): a completion writes
 *     them to the outbox in its own transaction; empty for every other ending
 */
public record AttemptEnd(String downstreamId, String detail, java.util.List<OutboxMessageDraft> messages) {

    /** An ending that sends no message. */
    public AttemptEnd(String downstreamId, String detail) {
        this(downstreamId, detail, java.util.List.of());
    }

    /** Copies the messages. */
    public AttemptEnd {
        messages = java.util.List.copyOf(messages);
    }

    /** The downstream id; the detail by size only (it may quote an error). */
    @Override
    public String toString() {
        return "AttemptEnd[downstreamId=" + downstreamId + ", detail=" + Redacted.size(detail) + ", messages="
                + messages.size() + "]";
    }
}
