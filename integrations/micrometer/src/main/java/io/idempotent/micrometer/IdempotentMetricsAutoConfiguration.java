package io.idempotent.micrometer;

import io.idempotent.runtime.IdempotentRuntime;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot: when Micrometer is on the class path and the application has a
 * {@link MeterRegistry}, the runtime's events become {@link MicrometerMetrics} meters in it, and
 * the default store's reconciliation and approval queues are read every 30 s for the gauges. The runtime is the
 * application's {@link IdempotentRuntime} bean if it has one, else the global runtime the agent
 * uses.
 */
@AutoConfiguration
@ConditionalOnClass(MeterRegistry.class)
public class IdempotentMetricsAutoConfiguration {

    /** How often the gauges of operations awaiting reconciliation and approval read the store. */
    static final Duration QUEUE_REFRESH = Duration.ofSeconds(30);

    /** Creates the configuration. */
    public IdempotentMetricsAutoConfiguration() {
    }

    /** Attaches the meters once every bean exists, so the registry's own configuration order does not matter. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public IdempotentMeters idempotentMeters(ObjectProvider<MeterRegistry> registries,
            ObjectProvider<IdempotentRuntime> runtimes) {
        return new IdempotentMeters(registries, runtimes);
    }

    /** The meters of one application's runtime, attached after start-up and detached on shutdown. */
    public static final class IdempotentMeters implements SmartInitializingSingleton, AutoCloseable {

        private final ObjectProvider<MeterRegistry> registries;
        private final ObjectProvider<IdempotentRuntime> runtimes;
        private MicrometerMetrics metrics;
        private AutoCloseable listening;

        IdempotentMeters(ObjectProvider<MeterRegistry> registries, ObjectProvider<IdempotentRuntime> runtimes) {
            this.registries = registries;
            this.runtimes = runtimes;
        }

        @Override
        public void afterSingletonsInstantiated() {
            MeterRegistry registry = registries.getIfAvailable();
            if (registry == null) {
                return;
            }
            IdempotentRuntime runtime = runtimes.getIfAvailable(IdempotentRuntime::global);
            metrics = new MicrometerMetrics(registry).watchQueue(runtime.operations(), "default", QUEUE_REFRESH)
                    .watchApprovals(runtime.approvals(), "default", QUEUE_REFRESH);
            listening = runtime.addMetricsListener(metrics);
        }

        /** The meters, or null when the application has no registry. */
        public MicrometerMetrics metrics() {
            return metrics;
        }

        @Override
        public void close() throws Exception {
            if (listening != null) {
                listening.close();
            }
            if (metrics != null) {
                metrics.close();
            }
        }
    }
}
