package io.idempotent.runtime.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.CountingMetrics;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.OutboxCounts;
import io.idempotent.runtime.OutboxEntry;
import io.idempotent.runtime.OutboxRelay;
import io.idempotent.runtime.ValueRejectedException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The outbox: a body's {@code send} is written with its completion or not at all, a relay that
 * stops between the destination's answer and its own record sends again with the same key (or
 * hands the message to an operator), and the purge keeps what is undelivered.
 */
class OutboxTest {

    static final String OUTBOX = "tool_operation_outbox";
    private static final ToolPolicy LEDGER = Policies.downstreamKey("ledger", Retry.SAFE).lease(Duration.ofSeconds(1))
            .outbox("billing", "audit").build();
    private static final Map<String, Object> PAYLOAD = Map.of("invoice", "inv-1");

    private static String sendTwo(String key) {
        OperationContext op = OperationContext.current();
        op.send("billing", "{\"n\":1}");
        op.send("audit", "{\"n\":2}");
        return "ok";
    }

    @OnBothDatabases
    void theMessagesAreWrittenWithTheCompletionUnderTheOperationKeyInOrder(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtime());

        runtime.call(LEDGER, "ledger:1", PAYLOAD, String.class, () -> sendTwo("ledger:1"));
        // A replay sends nothing again.
        runtime.call(LEDGER, "ledger:1", PAYLOAD, String.class, () -> sendTwo("ledger:1"));

        assertThat(db.status("ledger:1")).isEqualTo("completed");
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isEqualTo(2);
        assertThat(db.queryString("SELECT destination FROM " + OUTBOX + " WHERE operation_key = 'ledger:1' AND seq = 1"))
                .isEqualTo("billing");
        assertThat(db.queryString("SELECT message FROM " + OUTBOX + " WHERE seq = 2")).isEqualTo("{\"n\":2}");
        List<OutboxEntry> undelivered = runtime.outbox().undelivered("default", 10);
        assertThat(undelivered).extracting(OutboxEntry::sequence).containsExactly(1, 2);
        assertThat(undelivered).allSatisfy(e -> assertThat(e.status()).isEqualTo("pending"));

        CountingDestination destination = new CountingDestination(true);
        CountingMetrics metrics = new CountingMetrics();
        runtime.addMetricsListener(metrics);
        try (OutboxRelay relay = runtime.outbox().relay("default", destination)) {
            relay.deliverDue();
            relay.deliverDue();
        }
        assertThat(destination.keysSent()).containsExactly("ledger:1", "ledger:1#2");
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX + " WHERE status = 'delivered'")).isEqualTo(2);
        assertThat(metrics.count("ledger", CountingMetrics.Event.OUTBOX_DELIVERED)).isEqualTo(2);
        OutboxCounts counts = runtime.outbox().counts("default");
        assertThat(counts.delivered()).isEqualTo(2);
        assertThat(counts.pending()).isZero();
        assertThat(counts.oldestUndelivered()).isZero();
    }

    @OnBothDatabases
    void aBodyThatFailsSendsNothing(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtime());

        assertThatThrownBy(() -> runtime.call(LEDGER, "ledger:2", PAYLOAD, String.class, () -> {
            OperationContext.current().send("billing", "{}");
            throw new IllegalStateException("the ledger refused");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(db.status("ledger:2")).isNotEqualTo("completed");
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isZero();
    }

    @OnBothDatabases
    void aBadDestinationFailsTheBodyBeforeItsCompletion(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtime());

        assertThatThrownBy(() -> runtime.call(LEDGER, "ledger:3", PAYLOAD, String.class, () -> {
            OperationContext.current().send("bill\ning", "{}");
            return "unreachable";
        })).isInstanceOf(ValueRejectedException.class).hasMessageContaining("U+000A");
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isZero();
    }

    @OnBothDatabases
    void aFailingOutboxInsertRollsTheCompletionBack(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        // Every try of the completion's transaction fails at its outbox insert.
        faulty.breakUpdates("INSERT INTO " + OUTBOX, 1_000, Strike.BEFORE_EXECUTING);

        assertThatThrownBy(() -> runtime.call(LEDGER, "ledger:4", PAYLOAD, String.class, () -> sendTwo("ledger:4")))
                .isInstanceOf(RuntimeException.class);

        assertThat(faulty.injected()).isPositive();
        // The completion's UPDATE ran before each failed insert, and was rolled back with it.
        assertThat(db.status("ledger:4")).isEqualTo("in_progress");
        assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE result_json IS NOT NULL")).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isZero();
    }

    @OnBothDatabases
    void aFailingCompletionWritesNoOutboxRow(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        faulty.breakUpdates("SET status = 'completed', result_json = ?", 1_000, Strike.BEFORE_EXECUTING);

        assertThatThrownBy(() -> runtime.call(LEDGER, "ledger:5", PAYLOAD, String.class, () -> sendTwo("ledger:5")))
                .isInstanceOf(RuntimeException.class);

        assertThat(faulty.injected()).isPositive();
        assertThat(db.status("ledger:5")).isEqualTo("in_progress");
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isZero();
    }

    @OnBothDatabases
    void aCompletionWhoseCommitAnswerWasLostWritesItsMessagesOnce(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        runtime.call(LEDGER, "ledger:first", PAYLOAD, String.class, () -> "the schema is ready");
        faulty.breakCommits(1);

        runtime.call(LEDGER, "ledger:6", PAYLOAD, String.class, () -> sendTwo("ledger:6"));

        assertThat(db.status("ledger:6")).isEqualTo("completed");
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isEqualTo(2);
        assertThat(db.queryLong("SELECT count(DISTINCT seq) FROM " + OUTBOX + " WHERE operation_key = 'ledger:6'"))
                .isEqualTo(2);
    }

    @OnBothDatabases
    void thePurgeKeepsAnOperationWithAnUndeliveredMessage(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtime());
        runtime.call(LEDGER, "ledger:7", PAYLOAD, String.class, () -> sendTwo("ledger:7"));
        db.update("UPDATE tool_operations SET expires_at = " + db.nowPlusMillis(-60_000));

        assertThat(runtime.operations().purgeExpired("default")).isZero();
        assertThat(db.status("ledger:7")).isEqualTo("completed");

        try (OutboxRelay relay = runtime.outbox().relay("default", new CountingDestination(true))) {
            relay.deliverDue();
            relay.deliverDue();
        }
        assertThat(runtime.operations().purgeExpired("default")).isEqualTo(1);
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isZero();
    }
}
