package io.idempotent.springboot;

import io.idempotent.runtime.ReadinessReport;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Spring Boot 3's health indicator {@code idempotent} (Boot 3 keeps health in
 * {@code org.springframework.boot.actuate.health}): the same check as
 * {@link IdempotentHealthIndicator}, DOWN while a listed tool is not wrapped or a store does not
 * answer, UP otherwise.
 */
public final class IdempotentBoot3HealthIndicator implements HealthIndicator {

    private final HealthSettings settings;

    IdempotentBoot3HealthIndicator(HealthSettings settings) {
        this.settings = settings;
    }

    @Override
    public Health health() {
        ReadinessReport readiness = settings.check();
        return (readiness.ready() ? Health.up() : Health.down()).withDetails(readiness.details()).build();
    }
}
