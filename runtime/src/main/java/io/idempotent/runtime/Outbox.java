package io.idempotent.runtime;

import java.util.List;

/**
 * The outbox of the runtime's stores ({@link IdempotentRuntime#outbox()}): the messages that tool
 * bodies sent with {@link OperationContext#send}, the relays that deliver them, and what an operator
 * does with a message whose delivery is uncertain. See docs/outbox.md.
 */
public interface Outbox {

    /**
     * A relay of {@code store}'s outbox to {@code sender}, with the default settings; not started
     * ({@link OutboxRelay#start()} runs it on its own thread, {@link OutboxRelay#deliverDue()} runs one pass).
     */
    default OutboxRelay relay(String store, OutboxSender sender) {
        return relay(store, sender, OutboxRelay.Settings.defaults());
    }

    /** A relay of {@code store}'s outbox to {@code sender}, with {@code settings}; not started. */
    OutboxRelay relay(String store, OutboxSender sender, OutboxRelay.Settings settings);

    /**
     * The messages of {@code store} not delivered yet (pending, being sent, or awaiting
     * reconciliation), the oldest first, at most {@code limit}; without their text.
     */
    List<OutboxEntry> undelivered(String store, int limit);

    /** How many messages of {@code store} are in each state, and the age of the oldest undelivered one. */
    OutboxCounts counts(String store);

    /**
     * Settles a message awaiting reconciliation as delivered (an operator checked that the
     * destination has it). False when it is not awaiting reconciliation (any more).
     */
    boolean settleDelivered(String store, long id, String operator);

    /**
     * Sends a message awaiting reconciliation again, with the same idempotency key (an operator
     * checked that the destination does not have it). False when it is not awaiting reconciliation.
     */
    boolean resend(String store, long id, String operator);
}
