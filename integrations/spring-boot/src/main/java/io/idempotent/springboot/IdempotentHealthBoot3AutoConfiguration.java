package io.idempotent.springboot;

import io.idempotent.runtime.IdempotentRuntime;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Spring Boot 3: registers {@link IdempotentBoot3HealthIndicator} as the health contributor
 * {@code idempotent} when Actuator's Boot 3 health API is on the class path (and Boot 4's is not).
 * Off with {@code management.health.idempotent.enabled=false}.
 */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnMissingClass("org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnProperty(prefix = "management.health.idempotent", name = "enabled", matchIfMissing = true)
public class IdempotentHealthBoot3AutoConfiguration {

    /** Creates the configuration. */
    public IdempotentHealthBoot3AutoConfiguration() {
    }

    /** The indicator; its bean name makes Actuator call it {@code idempotent}. */
    @Bean
    @ConditionalOnMissingBean(name = "idempotentHealthIndicator")
    public IdempotentBoot3HealthIndicator idempotentHealthIndicator(ObjectProvider<IdempotentRuntime> runtimes,
            Environment environment) {
        return new IdempotentBoot3HealthIndicator(new HealthSettings(runtimes, environment));
    }
}
