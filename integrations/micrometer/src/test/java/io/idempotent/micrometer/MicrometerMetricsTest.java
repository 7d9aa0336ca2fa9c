package io.idempotent.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ApprovalDeniedException;
import io.idempotent.runtime.ApprovalPendingException;
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
import java.util.concurrent.atomic.AtomicInteger;

/** The meters a real runtime produces, on H2 and PostgreSQL. */
class MicrometerMetricsTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE)
            .notAppliedOn(java.util.List.of(IllegalArgumentException.class)).outbox("receipts").build();
    private static final ToolPolicy EMAIL = Policies.manualReview("email", Retry.SAFE).build();
    private static final ToolPolicy PAYOUT = Policies.downstreamKey("payout", Retry.SAFE).approval(Approval.REQUIRED)
            .build();
    /** An approval tool whose grants expire after the shortest validity allowed. */
    private static final ToolPolicy QUICK_PAYOUT = Policies.downstreamKey("quick_payout", Retry.SAFE)
            .approval(Approval.REQUIRED).approvalValidity(Duration.ofSeconds(1)).build();

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

    private static double approvals(SimpleMeterRegistry registry, String tool, String event) {
        var counter = registry.find(MicrometerMetrics.APPROVALS).tags("tool", tool, "event", event).counter();
        return counter == null ? 0 : counter.count();
    }

    /** Calls {@code policy} under {@code key}; the body counts its runs in {@code runs}. */
    private static String pay(IdempotentRuntime runtime, ToolPolicy policy, String key, AtomicInteger runs) {
        return runtime.call(policy, key, Map.of("payee", key, "amountCents", 90_000), String.class, () -> {
            runs.incrementAndGet();
            return "paid " + key;
        });
    }

    private static String payloadHash(IdempotentRuntime runtime, String tool, String key) {
        return runtime.approvals().pending("default", tool, 0, 100).stream().filter(p -> p.key().equals(key))
                .findFirst().orElseThrow(() -> new AssertionError(key + " is not pending")).payloadHash();
    }

    @OnBothDatabases
    void approvalRequestsDecisionsExpiriesAndTheirAnswersAreCountedPerTool(TestDatabase db) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(new MicrometerMetrics(registry)).build());
        AtomicInteger runs = new AtomicInteger();

        assertThatThrownBy(() -> pay(runtime, PAYOUT, "payout:granted", runs))
                .isInstanceOf(ApprovalPendingException.class);
        assertThatThrownBy(() -> pay(runtime, PAYOUT, "payout:granted", runs))
                .as("a retry while pending is an answer, not a new request").isInstanceOf(ApprovalPendingException.class);
        assertThatThrownBy(() -> pay(runtime, PAYOUT, "payout:denied", runs))
                .isInstanceOf(ApprovalPendingException.class);
        runtime.approvals().grant("default", "payout", "payout:granted",
                payloadHash(runtime, "payout", "payout:granted"), "alice", "within budget");
        runtime.approvals().deny("default", "payout", "payout:denied",
                payloadHash(runtime, "payout", "payout:denied"), "alice", "over the limit");
        assertThat(pay(runtime, PAYOUT, "payout:granted", runs)).isEqualTo("paid payout:granted");
        assertThatThrownBy(() -> pay(runtime, PAYOUT, "payout:denied", runs))
                .isInstanceOf(ApprovalDeniedException.class);
        assertThatThrownBy(() -> pay(runtime, QUICK_PAYOUT, "quick:1", runs))
                .isInstanceOf(ApprovalPendingException.class);
        runtime.approvals().grant("default", "quick_payout", "quick:1", payloadHash(runtime, "quick_payout", "quick:1"),
                "bob", null);
        db.awaitLeaseExpired("quick:1"); // an approved record's lease is its grant: this grant expired unused
        assertThatThrownBy(() -> pay(runtime, QUICK_PAYOUT, "quick:1", runs))
                .isInstanceOf(ApprovalPendingException.class);

        assertThat(runs).as("only the granted payout ran").hasValue(1);
        assertThat(approvals(registry, "payout", "requested")).isEqualTo(2);
        assertThat(approvals(registry, "payout", "granted")).isEqualTo(1);
        assertThat(approvals(registry, "payout", "denied")).isEqualTo(1);
        assertThat(approvals(registry, "payout", "expired")).isZero();
        assertThat(approvals(registry, "quick_payout", "requested")).isEqualTo(1);
        assertThat(approvals(registry, "quick_payout", "granted")).isEqualTo(1);
        assertThat(approvals(registry, "quick_payout", "expired")).isEqualTo(1);
        assertThat(outcome(registry, "payout", "awaiting_approval")).isEqualTo(3);
        assertThat(outcome(registry, "payout", "approval_denied")).isEqualTo(1);
        assertThat(outcome(registry, "payout", "executed")).isEqualTo(1);
        assertThat(outcome(registry, "quick_payout", "awaiting_approval")).isEqualTo(2);
        assertThat(registry.get(MicrometerMetrics.ATTEMPTS).tags("tool", "payout").counter().count()).isEqualTo(5);
        assertThat(registry.getMeters()).allSatisfy(meter -> assertThat(meter.getId().getTags())
                .noneMatch(tag -> tag.getValue().contains("payout:") || tag.getValue().contains("quick:")));
    }

    @OnBothDatabases
    void thePendingApprovalsGaugeReadsTheStoreNotTheCalls(TestDatabase db) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        IdempotentRuntime runtime = db.runtime();
        AtomicInteger runs = new AtomicInteger();
        for (String key : new String[] {"payout:1", "payout:2"}) {
            assertThatThrownBy(() -> pay(runtime, PAYOUT, key, runs)).isInstanceOf(ApprovalPendingException.class);
        }
        // The meters were never told about these calls: the gauge reads the store itself.
        try (MicrometerMetrics metrics = new MicrometerMetrics(registry)
                .watchApprovals(runtime.approvals(), "default", Duration.ofMillis(50))) {
            assertThat(awaitGauge(registry, MicrometerMetrics.AWAITING_APPROVAL, "payout", 2)).isEqualTo(2);
            runtime.approvals().grant("default", "payout", "payout:1", payloadHash(runtime, "payout", "payout:1"),
                    "alice", "within budget");
            assertThat(awaitGauge(registry, MicrometerMetrics.AWAITING_APPROVAL, "payout", 1)).isEqualTo(1);
            runtime.approvals().deny("default", "payout", "payout:2", payloadHash(runtime, "payout", "payout:2"),
                    "alice", "over the limit");
            assertThat(awaitGauge(registry, MicrometerMetrics.AWAITING_APPROVAL, "payout", 0))
                    .as("an emptied queue reads 0").isZero();
            assertThat(registry.find(MicrometerMetrics.AWAITING).gauges()).as("only the queue asked for").isEmpty();
        }
        assertThat(runs).hasValue(0);
    }

    private static double awaitGauge(SimpleMeterRegistry registry, String tool, double expected)
            throws InterruptedException {
        return awaitGauge(registry, MicrometerMetrics.AWAITING, tool, expected);
    }

    private static double awaitGauge(SimpleMeterRegistry registry, String name, String tool, double expected)
            throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        double value = Double.NaN;
        while (Instant.now().isBefore(deadline)) {
            Gauge gauge = registry.find(name).tags("store", "default", "tool", tool).gauge();
            value = gauge == null ? Double.NaN : gauge.value();
            if (value == expected) {
                return value;
            }
            Thread.sleep(10); // polling a gauge refreshed on another thread, bounded by the deadline
        }
        return value;
    }

    @org.junit.jupiter.api.Test
    void aDuplicatesWaitIsTimedByHowItEnded() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerMetrics metrics = new MicrometerMetrics(registry);
        metrics.duplicateWaited("refund", Duration.ofMillis(40), true);
        metrics.duplicateWaited("refund", Duration.ofMillis(300), false);
        metrics.duplicateWaited("refund", Duration.ofMillis(20), true);

        var answered = registry.get(MicrometerMetrics.DUPLICATE_WAITS).tags("tool", "refund", "ended", "answered")
                .timer();
        var inProgress = registry.get(MicrometerMetrics.DUPLICATE_WAITS).tags("tool", "refund", "ended",
                "in_progress").timer();
        assertThat(answered.count()).isEqualTo(2);
        assertThat(answered.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(60);
        assertThat(inProgress.count()).isEqualTo(1);
    }

    @OnBothDatabases
    void theOutboxRelaysEventsAreCountedAndItsBacklogIsAGauge(TestDatabase db) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(new MicrometerMetrics(registry)).build());
        for (String invoice : java.util.List.of("inv_1", "inv_2")) {
            runtime.call(REFUND, "refund:" + invoice, Map.of("invoiceId", invoice), String.class, () -> {
                io.idempotent.runtime.OperationContext.current().send("receipts", "{}");
                return "refunded";
            });
        }
        try (io.idempotent.runtime.OutboxRelay relay = runtime.outbox().relay("default", m -> {
            if (m.operationKey().endsWith("inv_2")) {
                throw new io.idempotent.runtime.MessageNotDeliveredException("HTTP 503");
            }
        })) {
            relay.deliverDue();
        }

        assertThat(registry.get(MicrometerMetrics.OUTBOX_MESSAGES).tags("tool", "refund", "event", "delivered")
                .counter().count()).isEqualTo(1);
        assertThat(registry.get(MicrometerMetrics.OUTBOX_MESSAGES).tags("tool", "refund", "event", "send_failed")
                .counter().count()).isEqualTo(1);
        assertThat(registry.get(MicrometerMetrics.OUTBOX_BACKLOG).tags("store", "default", "state", "pending")
                .gauge().value()).isEqualTo(1);
        assertThat(registry.get(MicrometerMetrics.OUTBOX_BACKLOG).tags("store", "default", "state",
                "needs_reconciliation").gauge().value()).isZero();
        assertThat(registry.get(MicrometerMetrics.OUTBOX_OLDEST).tags("store", "default").gauge().value())
                .isGreaterThanOrEqualTo(0);
    }
}
