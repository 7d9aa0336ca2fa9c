package io.idempotent.micronaut.health;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.ReadinessReport;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;

/**
 * The readiness indicator {@code idempotent} of micronaut-management's health endpoint
 * ({@code /health/readiness}): DOWN while a listed tool is not wrapped (the JVM started without
 * {@code -javaagent}, or a class could not be wrapped) or a store does not answer within the
 * library's setting {@code health.timeout} (default {@link ReadinessReport#DEFAULT_BOUND}); UP
 * otherwise. Its details name the tools and stores ({@link ReadinessReport#details()}). It checks
 * the application's {@link IdempotentRuntime} bean when there is one, else the global runtime the
 * agent uses. Off with {@code endpoints.health.idempotent.enabled=false}.
 */
@Singleton
@Readiness
@Requires(classes = HealthIndicator.class)
@Requires(property = "endpoints.health.idempotent.enabled", notEquals = "false")
public class IdempotentHealthIndicator implements HealthIndicator {

    private final BeanProvider<IdempotentRuntime> runtimes;

    /**
     * The indicator, with the application's runtime bean if there is one.
     *
     * @param runtimes the application's {@link IdempotentRuntime} beans (usually none)
     */
    public IdempotentHealthIndicator(BeanProvider<IdempotentRuntime> runtimes) {
        this.runtimes = runtimes;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        // The check blocks (a store read, bounded): Micronaut calls indicators off the event loop for the endpoint.
        ReadinessReport readiness = ReadinessReport.check(
                () -> runtimes.isPresent() ? runtimes.get() : IdempotentRuntime.global());
        return Publishers.just(HealthResult.builder("idempotent", readiness.ready() ? HealthStatus.UP
                : HealthStatus.DOWN).details(readiness.details()).build());
    }
}
