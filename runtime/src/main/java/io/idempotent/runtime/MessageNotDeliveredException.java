package io.idempotent.runtime;

/**
 * Thrown by an {@link OutboxSender} when the destination surely did not take the message (a
 * connection refused before the request was sent, an answer that says "not accepted, try later"):
 * the relay sends it again after a growing pause, whether or not the destination deduplicates.
 * Any other exception from {@link OutboxSender#send} means the outcome is unknown.
 */
public class MessageNotDeliveredException extends Exception {

    private static final long serialVersionUID = 1L;

    /** A refusal described by {@code reason} (stored as the delivery's last state: no message text in it). */
    public MessageNotDeliveredException(String reason) {
        super(reason);
    }

    /** A refusal described by {@code reason}, caused by {@code cause}. */
    public MessageNotDeliveredException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
