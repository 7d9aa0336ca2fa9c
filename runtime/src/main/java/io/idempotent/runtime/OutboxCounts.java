package io.idempotent.runtime;

import java.time.Duration;

/**
 * The outbox of one store in numbers ({@link Outbox#counts}, and each relay pass's
 * {@link MetricsListener#outboxBacklog}).
 *
 * @param pending messages waiting to be sent, or being sent by a relay
 * @param delivered messages delivered and not purged yet; -1 in a relay's report
 *     ({@link MetricsListener#outboxBacklog}), which does not count them (they may be most of the
 *     table; {@link MetricsListener#outboxDelivered} counts deliveries)
 * @param needsReconciliation messages whose delivery failed or is uncertain and waits for an operator
 * @param oldestUndelivered how long the oldest undelivered message has waited (zero when none)
 */
public record OutboxCounts(long pending, long delivered, long needsReconciliation, Duration oldestUndelivered) {
}
