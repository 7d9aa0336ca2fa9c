package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.CountingMetrics.Event;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.idempotent.runtime.testing.Workers;
import java.time.Duration;
import java.util.Map;

/**
 * The next call after a worker died inside the body, once its lease expired by the database's
 * clock: the expiry is written to the attempt log, and when the effect may have begun the
 * operation is counted as awaiting reconciliation, once, and the body does not run again.
 */
class ExpiredLeaseAnswersTest {

    private static final String KEY = "refund:invoice_842";
    private static final Map<String, Object> PAYLOAD = Map.of("id", KEY);

    @OnBothDatabases
    void aDeadWorkersExpiredLeaseAfterItsEffectBeganGoesToReconciliationCountedOnce(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());
        // A person reconciles (ManualReview answers UNKNOWN): the expired operation stays for them.
        ToolPolicy refund = Policies.manualReview("refund", Retry.SAFE).lease(Duration.ofSeconds(1)).build();
        FakeProvider provider = new FakeProvider();

        // The effect starts with the body (the default boundary); the worker dies inside it.
        Workers.enterBody(runtime, refund, KEY, PAYLOAD).abandon();
        db.awaitLeaseExpired(KEY);

        assertThatThrownBy(() -> runtime.call(refund, KEY, PAYLOAD, String.class, () -> provider.apply("again")))
                .isInstanceOf(NeedsReconciliationException.class);

        assertThat(provider.invocations()).isZero();
        assertThat(db.status(KEY)).isEqualTo("needs_reconciliation");
        assertThat(db.attemptOutcomes(KEY)).contains("LEASE_EXPIRED");
        assertThat(metrics.count("refund", Event.AWAITING_RECONCILIATION)).isEqualTo(1);
    }

    @OnBothDatabases
    void aDeadWorkersExpiredLeaseBeforeItsMarkedBoundaryIsRunAgainAndNotCountedForReconciliation(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());
        ToolPolicy notify = Policies.marked("notify", Retry.NEVER).lease(Duration.ofSeconds(1)).build();
        FakeProvider provider = new FakeProvider();

        Workers.enterBody(runtime, notify, KEY, PAYLOAD).abandon();
        db.awaitLeaseExpired(KEY);

        // Retry.NEVER: the expiry before the boundary is recorded failed safe, and not re-run.
        assertThatThrownBy(() -> runtime.call(notify, KEY, PAYLOAD, String.class, () -> provider.apply("again")))
                .isInstanceOf(OperationFailedException.class);
        assertThat(provider.invocations()).isZero();
        assertThat(db.status(KEY)).isEqualTo("failed_safe");
        assertThat(db.attemptOutcomes(KEY)).contains("LEASE_EXPIRED");
        assertThat(metrics.count("notify", Event.AWAITING_RECONCILIATION)).isZero();
    }
}
