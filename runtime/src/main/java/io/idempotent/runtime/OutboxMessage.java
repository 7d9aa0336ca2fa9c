package io.idempotent.runtime;

/**
 * One message of the outbox as a relay hands it to an {@link OutboxSender}: written by a tool body's
 * {@link OperationContext#send} in the same transaction as the operation's completion.
 *
 * @param id the outbox row's id (unique in its store; a Debezium router's event id)
 * @param tool the tool whose body sent it
 * @param operationKey the operation's key
 * @param sequence the message's place among the operation's messages, from 1: the relay delivers
 *     message n + 1 only after message n was delivered
 * @param destination where it goes, as the body named it (a topic, a queue, a URL's name)
 * @param message the message itself, as the body gave it
 * @param attempt which delivery attempt this is, from 1
 */
public record OutboxMessage(long id, String tool, String operationKey, int sequence, String destination,
        String message, int attempt) {

    /**
     * The idempotency key to hand the destination: the operation key for the operation's first
     * message, and the operation key followed by {@code #} and the sequence for the later ones,
     * so that a destination that deduplicates by key keeps every message of the operation once.
     * It is the same for every delivery attempt of this message.
     */
    public String idempotencyKey() {
        return sequence == 1 ? operationKey : operationKey + "#" + sequence;
    }

    /** Names the message without its text (messages and logs never carry stored payloads). */
    @Override
    public String toString() {
        return "OutboxMessage[id=" + id + ", tool=" + tool + ", operationKey=" + operationKey + ", sequence=" + sequence
                + ", destination=" + destination + ", attempt=" + attempt + ", message=" + (message == null ? 0
                        : message.length()) + " chars]";
    }
}
