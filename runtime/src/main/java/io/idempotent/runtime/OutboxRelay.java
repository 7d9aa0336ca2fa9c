package io.idempotent.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * Delivers one store's outbox to an {@link OutboxSender}: at least once, each message with its
 * operation's key, the messages of one operation in their order, failed sends again after a
 * growing pause. Relays in several JVMs may run on one store at once: each claims the rows it
 * sends ({@code FOR UPDATE SKIP LOCKED}, then a fenced claim), so no message is in two relays'
 * hands while their claims last. Made by {@link Outbox#relay}.
 */
public interface OutboxRelay extends AutoCloseable {

    /**
     * One pass: returns the messages of relays that stopped during a send to the queue (or to
     * reconciliation, see {@link OutboxSender}), then claims and sends the due messages, batch after
     * batch, until none is due; reports the backlog to the metrics.
     *
     * @return how many messages this pass delivered
     */
    int deliverDue();

    /** Runs {@link #deliverDue()} every {@link Settings#pollEvery()} on a daemon thread of its own; returns this relay. */
    OutboxRelay start();

    /** Stops the thread {@link #start()} started, after the send in progress (if any). */
    @Override
    void close();

    /**
     * How a relay works.
     *
     * @param relayId the name this relay writes on the rows it claims (default {@code pid@host} and a random part)
     * @param batch how many rows one claim takes, at most
     * @param claim how long a claim holds a row: a relay sends a row only while its claim has more
     *     than half of this left, and rows of a relay that stopped are taken up again after it
     *     (keep the sender's timeout well below it)
     * @param firstBackoff the pause after the first failed send of a message (it doubles after each)
     * @param maxBackoff the longest pause between two sends of a message
     * @param maxAttempts after this many failed sends, the message waits for an operator (needs_reconciliation)
     * @param pollEvery how often a started relay looks for due messages
     */
    record Settings(String relayId, int batch, Duration claim, Duration firstBackoff, Duration maxBackoff,
            int maxAttempts, Duration pollEvery) {

        /** Checks the values. */
        public Settings {
            Objects.requireNonNull(relayId, "relayId");
            if (batch < 1 || maxAttempts < 1 || claim.isNegative() || claim.isZero() || firstBackoff.isNegative()
                    || maxBackoff.compareTo(firstBackoff) < 0 || pollEvery.isNegative() || pollEvery.isZero()) {
                throw new IllegalArgumentException("outbox relay settings out of range: " + batch + " rows a batch, "
                        + maxAttempts + " attempts, claim " + claim + ", backoff " + firstBackoff + " to "
                        + maxBackoff + ", poll every " + pollEvery);
            }
        }

        /** 100 rows a batch, 5-minute claims, 1 s to 5 min between sends, 20 attempts, a pass every second. */
        public static Settings defaults() {
            return new Settings(io.idempotent.runtime.internal.outbox.RelayIds.next(), 100, Duration.ofMinutes(5),
                    Duration.ofSeconds(1), Duration.ofMinutes(5), 20, Duration.ofSeconds(1));
        }

        /** These settings under another relay id. */
        public Settings withRelayId(String id) {
            return new Settings(id, batch, claim, firstBackoff, maxBackoff, maxAttempts, pollEvery);
        }

        /** These settings with another batch size. */
        public Settings withBatch(int rows) {
            return new Settings(relayId, rows, claim, firstBackoff, maxBackoff, maxAttempts, pollEvery);
        }

        /** These settings with another claim length. */
        public Settings withClaim(Duration length) {
            return new Settings(relayId, batch, length, firstBackoff, maxBackoff, maxAttempts, pollEvery);
        }

        /** These settings with other pauses between failed sends. */
        public Settings withBackoff(Duration first, Duration max) {
            return new Settings(relayId, batch, claim, first, max, maxAttempts, pollEvery);
        }

        /** These settings with another limit of failed sends. */
        public Settings withMaxAttempts(int attempts) {
            return new Settings(relayId, batch, claim, firstBackoff, maxBackoff, attempts, pollEvery);
        }

        /** These settings with another poll interval. */
        public Settings withPollEvery(Duration interval) {
            return new Settings(relayId, batch, claim, firstBackoff, maxBackoff, maxAttempts, interval);
        }
    }
}
