package io.idempotent.micronaut.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.IdempotentRuntime;
import io.micronaut.context.ApplicationContext;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import io.micronaut.inject.qualifiers.Qualifiers;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * Micronaut's application context finds the indicator among the readiness indicators (what its
 * health endpoint's readiness path reads), UP with a real H2 store that answers, DOWN with one that
 * refuses connections. (The tool half is the same rule as Boot's and Quarkus', run there.)
 */
class IdempotentHealthIndicatorTest {

    @Test
    void aStoreThatAnswersIsReady() throws Exception {
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", "jdbc:h2:mem:" + UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1", "sa", "").build()) {
            HealthResult result = readiness(runtime);
            assertThat(result.getStatus()).isEqualTo(HealthStatus.UP);
            assertThat(details(result)).containsEntry("store.default", "reachable").containsEntry("listed", 0L);
        }
    }

    @Test
    void aStoreThatRefusesConnectionsIsNotReadyAndNamed() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", "jdbc:h2:tcp://127.0.0.1:"
                + closedPort + "/nowhere", "sa", "").build()) {
            HealthResult result = readiness(runtime);
            assertThat(result.getStatus()).isEqualTo(HealthStatus.DOWN);
            assertThat((String) details(result).get("store.default"))
                    .startsWith("store \"default\" refused a read: ");
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> details(HealthResult result) {
        return (Map<String, Object>) result.getDetails();
    }

    /** The idempotent indicator's result, as the health endpoint's readiness path finds and asks it. */
    private static HealthResult readiness(IdempotentRuntime runtime) throws Exception {
        try (ApplicationContext context = ApplicationContext.builder().singletons(runtime).start()) {
            List<HealthIndicator> indicators = List.copyOf(context.getBeansOfType(HealthIndicator.class,
                    Qualifiers.byStereotype(Readiness.class)));
            assertThat(indicators).hasAtLeastOneElementOfType(IdempotentHealthIndicator.class);
            HealthIndicator ours = indicators.stream().filter(IdempotentHealthIndicator.class::isInstance)
                    .findFirst().orElseThrow();
            CompletableFuture<HealthResult> result = new CompletableFuture<>();
            ours.getResult().subscribe(new Subscriber<HealthResult>() {
                @Override
                public void onSubscribe(Subscription s) {
                    s.request(1);
                }

                @Override
                public void onNext(HealthResult r) {
                    result.complete(r);
                }

                @Override
                public void onError(Throwable t) {
                    result.completeExceptionally(t);
                }

                @Override
                public void onComplete() {
                }
            });
            return result.get(60, TimeUnit.SECONDS);
        }
    }
}
