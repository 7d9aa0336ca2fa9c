package io.idempotent.springboot;

import io.idempotent.runtime.IdempotentRuntime;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Spring Boot 4: registers {@link IdempotentHealthIndicator} as the health contributor
 * {@code idempotent} when Boot's health API ({@code spring-boot-health}, which Actuator brings) is
 * on the class path. Off with {@code management.health.idempotent.enabled=false}.
 */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnProperty(prefix = "management.health.idempotent", name = "enabled", matchIfMissing = true)
public class IdempotentHealthAutoConfiguration {

    /** Creates the configuration. */
    public IdempotentHealthAutoConfiguration() {
    }

    /** The indicator; its bean name makes Actuator call it {@code idempotent}. */
    @Bean
    @ConditionalOnMissingBean(name = "idempotentHealthIndicator")
    public IdempotentHealthIndicator idempotentHealthIndicator(ObjectProvider<IdempotentRuntime> runtimes,
            Environment environment) {
        return new IdempotentHealthIndicator(new HealthSettings(runtimes, environment));
    }
}
