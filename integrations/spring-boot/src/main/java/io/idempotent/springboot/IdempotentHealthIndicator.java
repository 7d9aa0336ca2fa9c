package io.idempotent.springboot;

import io.idempotent.runtime.ReadinessReport;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Spring Boot 4's health indicator {@code idempotent}: DOWN while a listed tool is not wrapped
 * (the JVM started without {@code -javaagent}, or a class could not be wrapped) or a store does
 * not answer within {@code management.health.idempotent.timeout}; UP otherwise. Its details name
 * the tools and stores ({@link ReadinessReport#details()}). Add it to the readiness group so that such a
 * pod takes no traffic: {@code management.endpoint.health.group.readiness.include=readinessState,idempotent}.
 */
public final class IdempotentHealthIndicator implements HealthIndicator {

    private final HealthSettings settings;

    IdempotentHealthIndicator(HealthSettings settings) {
        this.settings = settings;
    }

    @Override
    public Health health() {
        ReadinessReport readiness = settings.check();
        return (readiness.ready() ? Health.up() : Health.down()).withDetails(readiness.details()).build();
    }
}
