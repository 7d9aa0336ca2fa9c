package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.CountingMetrics.Event;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** The approval events of a real runtime reach its metrics listeners, counted per tool. */
class ApprovalCountingMetricsTest {

    private static final ToolPolicy PAYOUT = Policies.downstreamKey("payout", Retry.SAFE).approval(Approval.REQUIRED)
            .build();

    private static String pay(IdempotentRuntime runtime, String key, AtomicInteger runs) {
        return runtime.call(PAYOUT, key, Map.of("payee", key, "amountCents", 90_000), String.class, () -> {
            runs.incrementAndGet();
            return "paid";
        });
    }

    private static String payloadHash(IdempotentRuntime runtime, String key) {
        return runtime.approvals().pending("default", "payout", 0, 100).stream().filter(p -> p.key().equals(key))
                .findFirst().orElseThrow(() -> new AssertionError(key + " is not pending")).payloadHash();
    }

    @OnBothDatabases
    void requestsAndDecisionsAreCountedOnceEachAndRetriesAreNotRequests(TestDatabase db) {
        CountingMetrics metrics = new CountingMetrics();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(metrics).build());
        AtomicInteger runs = new AtomicInteger();

        for (String key : new String[] {"payout:1", "payout:1", "payout:2"}) {
            assertThatThrownBy(() -> pay(runtime, key, runs)).isInstanceOf(ApprovalPendingException.class);
        }
        runtime.approvals().grant("default", "payout", "payout:1", payloadHash(runtime, "payout:1"), "alice", "ok");
        runtime.approvals().deny("default", "payout", "payout:2", payloadHash(runtime, "payout:2"), "alice", "no");
        assertThat(pay(runtime, "payout:1", runs)).isEqualTo("paid");
        assertThatThrownBy(() -> pay(runtime, "payout:2", runs)).isInstanceOf(ApprovalDeniedException.class);

        assertThat(runs).hasValue(1);
        assertThat(metrics.count("payout", Event.ATTEMPTS)).isEqualTo(5);
        assertThat(metrics.count("payout", Event.APPROVALS_REQUESTED)).isEqualTo(2);
        assertThat(metrics.count("payout", Event.APPROVALS_GRANTED)).isEqualTo(1);
        assertThat(metrics.count("payout", Event.APPROVALS_DENIED)).isEqualTo(1);
        assertThat(metrics.count("payout", Event.APPROVALS_EXPIRED)).isZero();
        assertThat(metrics.count("payout", Event.EXECUTIONS)).isEqualTo(1);
    }
}
