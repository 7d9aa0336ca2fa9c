package io.idempotent.runtime;

/**
 * The application's side of the outbox relay: delivers one message to its destination (an HTTP
 * endpoint, a Kafka topic, a JMS queue). The relay calls it at least once per message, with the
 * same {@link OutboxMessage#idempotencyKey()} every time, and never for one message from two relays
 * at once while each relay's claim lasts (keep {@link #send}'s own timeout shorter than the relay's
 * claim, {@link OutboxRelay.Settings#claim()}).
 *
 * <p>What the relay does with each outcome:
 * <ul>
 * <li>{@code send} returns: the destination has the message; the row becomes {@code delivered}.</li>
 * <li>{@code send} throws {@link MessageNotDeliveredException}: the destination surely does not have
 *     it; the relay tries again after a growing pause.</li>
 * <li>{@code send} throws anything else, or the relay stops during {@code send}: the outcome is
 *     unknown. If {@link #deduplicates} says the destination drops a second message with the same key,
 *     the relay sends it again; otherwise the row goes to {@code needs_reconciliation} with what
 *     the relay last knew, for an operator ({@link Outbox#settleDelivered}, {@link Outbox#resend}).</li>
 * </ul>
 */
public interface OutboxSender {

    /**
     * Delivers {@code message}; returns once the destination accepted it.
     *
     * @throws MessageNotDeliveredException when the destination surely did not take it
     * @throws Exception when the outcome is unknown (a timeout, a lost answer)
     */
    void send(OutboxMessage message) throws Exception;

    /**
     * Whether {@code destination} keeps each idempotency key at most once (an HTTP API with an
     * {@code Idempotency-Key}, a Kafka consumer that deduplicates by the record key, a table with a
     * unique key): then a message whose send had an unknown outcome is sent again with the same key.
     * False (the default): such a message waits for an operator.
     */
    default boolean deduplicates(String destination) {
        return false;
    }
}
