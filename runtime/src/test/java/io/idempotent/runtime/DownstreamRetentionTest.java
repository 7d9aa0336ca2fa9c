package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;

/**
 * {@code Retry.UNCERTAIN} with a downstream key re-sends under the same key only while the
 * downstream still remembers it, judged by the database's clock.
 */
class DownstreamRetentionTest {

    private static final String KEY = "refund:invoice_842:approved_17";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    @OnBothDatabases
    void pastTheDownstreamRetentionAnUncertainOperationIsNotReSent(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.UNCERTAIN)
                .downstreamRetention(Duration.ofMillis(1500)).lease(Duration.ofSeconds(1)).build();
        assertThatThrownBy(() -> runtime.call(refund, KEY, PAYLOAD, String.class, () -> {
            provider.apply(KEY, "refund");
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);
        // The provider forgets the key after its retention; wait until the database says it passed.
        TestDatabase.await(() -> db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ?"
                + " AND created_at < " + minus(db, 1600), KEY) == 1, Duration.ofSeconds(20),
                "the downstream retention to pass");

        assertThatThrownBy(() -> runtime.call(refund, KEY, PAYLOAD, String.class,
                () -> provider.apply("forgotten-key-" + KEY, "refund")))
                .isInstanceOf(NeedsReconciliationException.class).hasMessageContaining("downstreamRetention");
        assertThat(provider.invocations()).isEqualTo(1);
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
    }

    @OnBothDatabases
    void withinTheDownstreamRetentionTheSameKeyIsReSent(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.UNCERTAIN).build();
        assertThatThrownBy(() -> runtime.call(refund, KEY, PAYLOAD, String.class, () -> {
            provider.apply(KEY, "refund");
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(runtime.call(refund, KEY, PAYLOAD, String.class, () -> provider.apply(KEY, "refund")))
                .isEqualTo("done:refund");
        assertThat(provider.effects()).isEqualTo(1);
    }

    private static String minus(TestDatabase db, long millis) {
        return db.kind() == io.idempotent.runtime.testing.Database.H2
                ? "DATEADD(MILLISECOND, -" + millis + ", CURRENT_TIMESTAMP)"
                : "(CURRENT_TIMESTAMP - INTERVAL '" + millis + " milliseconds')";
    }
}
