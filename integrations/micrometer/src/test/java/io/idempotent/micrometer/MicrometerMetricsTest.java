package io.idempotent.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** The meters a real runtime produces, on H2 and PostgreSQL. */
class MicrometerMetricsTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE)
            .notAppliedOn(java.util.List.of(IllegalArgumentException.class)).build();
    private static final ToolPolicy EMAIL = Policies.manualReview("email", Retry.SAFE).build();

    private static double outcome(SimpleMeterRegistry registry, String tool, String outcome) {
        var counter = registry.find(MicrometerMetrics.OUTCOMES).tags("tool", tool, "outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    @OnBothDatabases
    void everyOutcomeIsCountedPerToolAndTheStoreIsTimed(TestDatabase db) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(new MicrometerMetrics(registry)).build());
        Map<String, Object> payload = Map.of("invoiceId", "inv_1");

        runtime.call(REFUND, "refund:inv_1", payload, String.class, () -> "refunded");
        runtime.call(REFUND, "refund:inv_1", payload, String.class, () -> "again");
        assertThatThrownBy(() -> runtime.call(REFUND, "refund:inv_1", Map.of("invoiceId", "inv_9"), String.class,
                () -> "changed")).isInstanceOf(PayloadConflictException.class);
        assertThatThrownBy(() -> runtime.call(REFUND, "refund:inv_2", payload, String.class, () -> {
            throw new IllegalArgumentException("declined");
        })).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> runtime.call(EMAIL, "email:u_1", Map.of("userId", "u_1"), String.class, () -> {
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> runtime.call(EMAIL, "email:u_1", Map.of("userId", "u_1"), String.class,
                () -> "resent")).isInstanceOf(NeedsReconciliationException.class);

        assertThat(registry.get(MicrometerMetrics.ATTEMPTS).tags("tool", "refund").counter().count()).isEqualTo(4);
        assertThat(outcome(registry, "refund", "executed")).isEqualTo(2);
        assertThat(outcome(registry, "refund", "replayed")).isEqualTo(1);
        assertThat(outcome(registry, "refund", "payload_conflict")).isEqualTo(1);
        assertThat(outcome(registry, "refund", "failed_safe")).isEqualTo(1);
        assertThat(outcome(registry, "email", "executed")).isEqualTo(1);
        assertThat(outcome(registry, "email", "awaiting_reconciliation")).isEqualTo(1);
        assertThat(outcome(registry, "email", "reconciled_unknown")).isEqualTo(1);
        assertThat(registry.get(MicrometerMetrics.STORE_LATENCY).tags("tool", "refund", "operation", "claim").timer()
                .count()).isEqualTo(4);
        assertThat(registry.get(MicrometerMetrics.STORE_LATENCY).tags("tool", "refund", "operation", "completion")
                .timer().count()).isEqualTo(1);
        // Keys are never tags.
        assertThat(registry.getMeters()).allSatisfy(meter -> assertThat(meter.getId().getTags())
                .noneMatch(tag -> tag.getValue().contains("inv_") || tag.getValue().contains("u_1")));
    }

    @OnBothDatabases
    void theQueueGaugeReadsTheStoreNotTheCalls(TestDatabase db) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        IdempotentRuntime runtime = db.runtime();
        for (String user : new String[] {"u_1", "u_2"}) {
            assertThatThrownBy(() -> runtime.call(EMAIL, "email:" + user, Map.of("userId", user), String.class, () -> {
                throw new IllegalStateException("reply lost");
            })).isInstanceOf(IllegalStateException.class);
        }
        // The meters were never told about these calls: the gauge reads the store itself.
        try (MicrometerMetrics metrics = new MicrometerMetrics(registry)
                .watchQueue(runtime.operations(), "default", Duration.ofMillis(50))) {
            assertThat(awaitGauge(registry, "email", 2)).isEqualTo(2);
            runtime.operations().settleNotApplied("default", "email", "email:u_1", "no such message", "alice");
            assertThat(awaitGauge(registry, "email", 1)).isEqualTo(1);
            runtime.operations().settleNotApplied("default", "email", "email:u_2", "no such message", "alice");
            assertThat(awaitGauge(registry, "email", 0)).as("an emptied queue reads 0").isZero();
        }
    }

    private static double awaitGauge(SimpleMeterRegistry registry, String tool, double expected)
            throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        double value = Double.NaN;
        while (Instant.now().isBefore(deadline)) {
            Gauge gauge = registry.find(MicrometerMetrics.AWAITING).tags("store", "default", "tool", tool).gauge();
            value = gauge == null ? Double.NaN : gauge.value();
            if (value == expected) {
                return value;
            }
            Thread.sleep(10); // polling a gauge refreshed on another thread, bounded by the deadline
        }
        return value;
    }
}
