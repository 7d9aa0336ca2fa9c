package io.idempotent.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.IdempotentRuntime;
import java.net.ServerSocket;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.autoconfigure.availability.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.availability.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthEndpointAutoConfiguration;
import org.springframework.boot.actuate.health.CompositeHealth;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Boot 3 with Actuator (health in {@code org.springframework.boot.actuate.health}), in a real
 * application context: the same cases as {@link IdempotentHealthAutoConfigurationTest} on Boot 4.
 * Compiled and run only by integrations/spring-boot-3.5-it, on Boot 3.5.7.
 */
class Boot3HealthAutoConfigurationTest {

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
                    EndpointAutoConfiguration.class, HealthContributorAutoConfiguration.class,
                    HealthEndpointAutoConfiguration.class, AvailabilityHealthContributorAutoConfiguration.class,
                    AvailabilityProbesAutoConfiguration.class, IdempotentHealthAutoConfiguration.class,
                    IdempotentHealthBoot3AutoConfiguration.class))
            .withPropertyValues("management.endpoint.health.probes.enabled=true",
                    "management.endpoint.health.group.readiness.include=readinessState,idempotent",
                    "management.endpoint.health.show-details=always",
                    // A cold store's first read creates its schema, slow on a busy machine: the bound is no timing test.
                    "management.health.idempotent.timeout=30s");

    private static Path compiled;
    private static Path woven;

    @BeforeAll
    static void build(@TempDir Path dir) throws Exception {
        compiled = ToolFixture.compiled(dir.resolve("plain"));
        woven = ToolFixture.woven(dir.resolve("weave"));
    }

    private static IdempotentRuntime reachable() {
        return IdempotentRuntime.builder().store("default", "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                "sa", "").build();
    }

    @Test
    void aWovenToolAndAStoreThatAnswersAreReady() throws Exception {
        try (URLClassLoader app = ToolFixture.loader(woven)) {
            assertReadiness(app, Boot3HealthAutoConfigurationTest::reachable, Status.UP, 1, null,
                    "reachable");
        }
    }

    @Test
    void aListedToolLoadedUnwrappedIsNotReadyAndNamed() throws Exception {
        try (URLClassLoader app = ToolFixture.loader(compiled)) {
            assertReadiness(app, Boot3HealthAutoConfigurationTest::reachable, Status.DOWN,
                    0, "issueRefund", "reachable");
        }
    }

    @Test
    void aStoreThatDoesNotAnswerIsNotReadyAndNamed() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        IdempotentRuntime down = IdempotentRuntime.builder().store("default", "jdbc:h2:tcp://127.0.0.1:" + closedPort
                + "/nowhere", "sa", "").build();
        try (URLClassLoader app = ToolFixture.loader(woven)) {
            assertReadiness(app, () -> down, Status.DOWN, 1, null,
                    "store \"default\" refused a read: ");
        }
    }

    @Test
    void onlyTheBoot3IndicatorIsRegistered() {
        contexts.withBean(IdempotentRuntime.class, Boot3HealthAutoConfigurationTest::reachable).run(context -> {
            // Boot 4's indicator class cannot even load here (its interface is missing): the name is Boot 3's.
            assertThat(context).hasNotFailed().hasSingleBean(IdempotentBoot3HealthIndicator.class);
            assertThat(context.getBean("idempotentHealthIndicator")).isInstanceOf(IdempotentBoot3HealthIndicator.class);
            context.getBean(IdempotentRuntime.class).close();
        });
    }

    private void assertReadiness(URLClassLoader app, Supplier<IdempotentRuntime> runtime, Status status,
            long wrapped, String unwrapped, String store) {
        contexts.withClassLoader(app).withBean(IdempotentRuntime.class, runtime).run(context -> {
            assertThat(context).hasNotFailed().hasBean("idempotentHealthIndicator");
            AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
            ClassLoader previous = Thread.currentThread().getContextClassLoader();
            // As on a request thread of the application: its class loader is the thread's.
            Thread.currentThread().setContextClassLoader(app);
            try {
                HealthComponent readiness = context.getBean(HealthEndpoint.class).healthForPath("readiness");
                Health idempotent = (Health) ((CompositeHealth) readiness).getComponents().get("idempotent");
                assertThat(readiness.getStatus()).as("readiness, with %s", idempotent.getDetails()).isEqualTo(status);
                assertThat(idempotent.getStatus()).isEqualTo(status);
                assertThat(idempotent.getDetails()).containsEntry("listed", 1L).containsEntry("wrapped", wrapped)
                        .containsEntry("agent", false);
                assertThat(idempotent.getDetails().get("unwrapped")).isEqualTo(unwrapped);
                assertThat((String) idempotent.getDetails().get("store.default")).startsWith(store);
            } finally {
                Thread.currentThread().setContextClassLoader(previous);
            }
            context.getBean(IdempotentRuntime.class).close();
        });
    }
}
