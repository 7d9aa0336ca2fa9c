package io.idempotent.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ApprovalPendingException;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The Boot auto-configuration, in a real application context. */
class IdempotentMetricsAutoConfigurationTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdempotentMetricsAutoConfiguration.class));

    private static IdempotentRuntime memoryRuntime() {
        return IdempotentRuntime.builder().store("default", "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                "sa", "").build();
    }

    @Test
    void theApplicationsRuntimeReportsToTheApplicationsRegistry() {
        contexts.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withBean(IdempotentRuntime.class, IdempotentMetricsAutoConfigurationTest::memoryRuntime)
                .run(context -> {
                    IdempotentRuntime runtime = context.getBean(IdempotentRuntime.class);
                    runtime.call(REFUND, "refund:1", Map.of("id", 1), String.class, () -> "done");
                    runtime.call(REFUND, "refund:1", Map.of("id", 1), String.class, () -> "again");
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get(MicrometerMetrics.OUTCOMES).tags("tool", "refund", "outcome", "executed")
                            .counter().count()).isEqualTo(1);
                    assertThat(registry.get(MicrometerMetrics.OUTCOMES).tags("tool", "refund", "outcome", "replayed")
                            .counter().count()).isEqualTo(1);
                });
    }

    @Test
    void theDefaultStoresApprovalQueueIsAGaugeFromTheStart() {
        IdempotentRuntime runtime = memoryRuntime();
        ToolPolicy payout = Policies.downstreamKey("payout", Retry.SAFE).approval(Approval.REQUIRED).build();
        assertThatThrownBy(() -> runtime.call(payout, "payout:1", Map.of("id", 1), String.class, () -> "paid"))
                .isInstanceOf(ApprovalPendingException.class);
        contexts.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withBean(IdempotentRuntime.class, () -> runtime)
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    // The first read is made at start, the next ones every 30 s: poll the first.
                    TestDatabase.await(() -> registry.find(MicrometerMetrics.AWAITING_APPROVAL)
                            .tags("store", "default", "tool", "payout").gauge() != null, Duration.ofSeconds(30),
                            "the pending-approvals gauge");
                    Gauge pending = registry.get(MicrometerMetrics.AWAITING_APPROVAL)
                            .tags("store", "default", "tool", "payout").gauge();
                    assertThat(pending.value()).isEqualTo(1);
                });
    }

    @Test
    void withoutARegistryNothingIsAttached() {
        contexts.withBean(IdempotentRuntime.class, IdempotentMetricsAutoConfigurationTest::memoryRuntime)
                .run(context -> assertThat(context.getBean(IdempotentMetricsAutoConfiguration.IdempotentMeters.class)
                        .metrics()).isNull());
    }

    @Test
    void closingTheContextDetachesTheMeters() {
        IdempotentRuntime runtime = memoryRuntime();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        contexts.withBean(MeterRegistry.class, () -> registry).withBean("runtime", IdempotentRuntime.class,
                () -> runtime, bd -> bd.setDestroyMethodName("")).run(context -> {
                    // the context closes at the end of run
                });
        runtime.call(REFUND, "refund:2", Map.of("id", 2), String.class, () -> "done");
        assertThat(registry.find(MicrometerMetrics.OUTCOMES).tags("outcome", "executed").counter()).isNull();
        runtime.close();
    }
}
