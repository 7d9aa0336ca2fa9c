package io.idempotent.runtime.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.CountingMetrics;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.MessageNotDeliveredException;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.OutboxEntry;
import io.idempotent.runtime.OutboxMessage;
import io.idempotent.runtime.OutboxRelay;
import io.idempotent.runtime.OutboxSender;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * The relay: a relay that dies after the destination applied a message and before it recorded
 * the delivery leaves a message to a destination that does not deduplicate to an operator (the
 * deduplicating case, with a JVM really killed, is {@link RelayCrashTest}); relays racing on one
 * store deliver every message, none in two relays at once, each operation's messages in order.
 */
class OutboxRelayTest {

    private static final String OUTBOX = OutboxTest.OUTBOX;
    private static final ToolPolicy NOTIFY = Policies.downstreamKey("notify", Retry.SAFE).outbox("mail").build();

    /** What a relay's thread dies of in these tests: not an Exception, so nothing in the relay records it. */
    private static final class RelayDeath extends Error {
        RelayDeath() {
            super("the relay's JVM stopped here");
        }
    }

    private static void notify(IdempotentRuntime runtime, String key, int messages) {
        runtime.call(NOTIFY, key, Map.of("key", key), String.class, () -> {
            for (int i = 1; i <= messages; i++) {
                OperationContext.current().send("mail", "{\"n\":" + i + "}");
            }
            return "sent";
        });
    }

    private static OutboxRelay.Settings shortClaims(String relay) {
        return OutboxRelay.Settings.defaults().withRelayId(relay).withClaim(Duration.ofMillis(1_500))
                .withBackoff(Duration.ZERO, Duration.ZERO);
    }

    @OnBothDatabases
    void aRelayKilledAfterTheSendToADestinationThatDoesNotDeduplicateLeavesItToAnOperator(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtime());
        CountingMetrics metrics = new CountingMetrics();
        runtime.addMetricsListener(metrics);
        notify(runtime, "notify:2", 1);
        CountingDestination destination = new CountingDestination(false);
        destination.afterEffect(() -> {
            throw new RelayDeath();
        });
        assertThatThrownBy(() -> runtime.outbox().relay("default", destination, shortClaims("relay-a")).deliverDue())
                .isInstanceOf(RelayDeath.class);

        destination.afterEffect(() -> { });
        awaitClaimRunOut(db);
        assertThat(runtime.outbox().relay("default", destination, shortClaims("relay-b")).deliverDue()).isZero();

        assertThat(destination.hits()).isEqualTo(1);
        OutboxEntry entry = runtime.outbox().undelivered("default", 10).get(0);
        assertThat(entry.status()).isEqualTo("needs_reconciliation");
        assertThat(entry.lastState()).contains("relay-a stopped during send attempt 1")
                .contains("whether the destination got it is unknown");
        assertThat(metrics.count("notify", CountingMetrics.Event.OUTBOX_NEEDS_RECONCILIATION)).isEqualTo(1);
        assertThat(runtime.outbox().counts("default").needsReconciliation()).isEqualTo(1);

        // The operator checked the destination: it has the message.
        assertThat(runtime.outbox().settleDelivered("default", entry.id(), "alice")).isTrue();
        assertThat(runtime.outbox().undelivered("default", 10)).isEmpty();
    }

    @OnBothDatabases
    void aRefusedSendIsTriedAgainAfterAPauseAndAnUncertainOneGoesToAnOperator(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtime());
        notify(runtime, "notify:3", 1);
        List<Integer> attempts = new ArrayList<>();
        OutboxSender refusingOnce = message -> {
            attempts.add(message.attempt());
            if (message.attempt() == 1) {
                throw new MessageNotDeliveredException("HTTP 503");
            }
            throw new java.io.IOException("read timed out");
        };
        OutboxRelay relay = runtime.outbox().relay("default", refusingOnce, shortClaims("relay-a"));
        relay.deliverDue();
        assertThat(db.queryString("SELECT status FROM " + OUTBOX)).isEqualTo("pending");
        assertThat(db.queryString("SELECT last_state FROM " + OUTBOX)).isEqualTo("send attempt 1 not delivered: HTTP 503");

        relay.deliverDue();
        assertThat(attempts).containsExactly(1, 2);
        assertThat(db.queryString("SELECT status FROM " + OUTBOX)).isEqualTo("needs_reconciliation");
        assertThat(db.queryString("SELECT last_state FROM " + OUTBOX)).contains("java.io.IOException")
                .contains("the destination may have it").doesNotContain("read timed out");
    }

    /** Four relays (a two-relay race proves nothing more: every claim below holds for any number of relays). */
    @OnBothDatabases
    void fourRelaysRacingOnAThousandMessagesDeliverEachOnceAndNeverTogether(TestDatabase db) throws Exception {
        race(db, 4);
    }

    /** 100 operations of ten messages each; {@code relays} relays on separate threads and connections. */
    private static void race(TestDatabase db, int relays) throws Exception {
        IdempotentRuntime writer = db.track(db.runtime());
        for (int op = 0; op < 100; op++) {
            notify(writer, "notify:race:" + op, 10);
        }
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isEqualTo(1_000);
        CountingDestination destination = new CountingDestination(false);
        CyclicBarrier start = new CyclicBarrier(relays);
        ExecutorService pool = Executors.newFixedThreadPool(relays);
        try {
            List<Future<Integer>> delivered = new ArrayList<>();
            for (int r = 0; r < relays; r++) {
                // A runtime each, as relays in several JVMs have: their own connections.
                IdempotentRuntime runtime = db.track(db.runtime());
                OutboxRelay relay = runtime.outbox().relay("default", destination, OutboxRelay.Settings.defaults()
                        .withRelayId("relay-" + r).withBatch(25));
                delivered.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    int sum = 0;
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (System.nanoTime() < deadline && db.queryLong("SELECT count(*) FROM " + OUTBOX
                            + " WHERE status <> 'delivered'") > 0) {
                        sum += relay.deliverDue();
                    }
                    return sum;
                }));
            }
            int total = 0;
            List<Integer> each = new ArrayList<>();
            for (Future<Integer> f : delivered) {
                int n = f.get(90, TimeUnit.SECONDS);
                each.add(n);
                total += n;
            }
            assertThat(total).isEqualTo(1_000);
            assertThat(destination.hits()).isEqualTo(1_000);
            assertThat(destination.effects()).isEqualTo(1_000);
            assertThat(destination.overlaps()).isZero();
            assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX + " WHERE status = 'delivered' AND attempts = 1"))
                    .isEqualTo(1_000);
            assertThat(destination.sequences()).hasSize(100).allSatisfy((op, seqs) ->
                    assertThat(seqs).containsExactlyElementsOf(IntStream.rangeClosed(1, 10).boxed().toList()));
            // More than one relay took part (the race was real).
            assertThat(each.stream().filter(n -> n > 0).count()).isGreaterThan(1);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void awaitClaimRunOut(TestDatabase db) {
        TestDatabase.await(() -> db.queryLong("SELECT count(*) FROM " + OUTBOX + " WHERE status = 'sending' AND"
                + " claimed_until < CURRENT_TIMESTAMP") == 1, Duration.ofSeconds(20), "the dead relay's claim to run out");
    }
}
