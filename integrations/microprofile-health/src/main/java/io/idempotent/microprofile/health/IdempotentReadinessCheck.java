package io.idempotent.microprofile.health;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.ReadinessReport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * The readiness check {@code idempotent} (Quarkus: {@code /q/health/ready}; Helidon and Open
 * Liberty: {@code /health/ready}): DOWN while a listed tool is not wrapped (the JVM started without
 * {@code -javaagent}, or a class could not be wrapped) or a store does not answer within the bound
 * ({@link ReadinessReport#DEFAULT_BOUND}, or the library's setting {@code health.timeout}:
 * {@code -Didempotent.health.timeout=PT0.5S} or {@code IDEMPOTENT_HEALTH_TIMEOUT}); UP otherwise. Its data name
 * the tools and stores, never payloads ({@link ReadinessReport#details()}). It
 * checks the application's {@link IdempotentRuntime} bean when it produces one, else the global
 * runtime the agent uses.
 */
@Readiness
@ApplicationScoped
public class IdempotentReadinessCheck implements HealthCheck {

    private final Instance<IdempotentRuntime> runtimes;

    /**
     * The check, with the application's runtime bean if there is one.
     *
     * @param runtimes the application's {@link IdempotentRuntime} beans (usually none)
     */
    @Inject
    public IdempotentReadinessCheck(Instance<IdempotentRuntime> runtimes) {
        this.runtimes = runtimes;
    }

    @Override
    public HealthCheckResponse call() {
        ReadinessReport readiness = ReadinessReport.check(
                () -> runtimes.isResolvable() ? runtimes.get() : IdempotentRuntime.global());
        HealthCheckResponseBuilder response = HealthCheckResponse.named("idempotent").status(readiness.ready());
        for (Map.Entry<String, Object> entry : readiness.details().entrySet()) {
            if (entry.getValue() instanceof Boolean flag) {
                response.withData(entry.getKey(), flag);
            } else if (entry.getValue() instanceof Long count) {
                response.withData(entry.getKey(), count);
            } else {
                response.withData(entry.getKey(), String.valueOf(entry.getValue()));
            }
        }
        return response.build();
    }
}
