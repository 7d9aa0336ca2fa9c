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
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Boot 4 with Actuator, in a real application context: the readiness group that includes
 * {@code idempotent} is DOWN while a listed tool is loaded unwrapped or the store does not answer,
 * UP when the tool was woven and the store answers. The tool is a user's class compiled with the
 * processor and, for UP, woven by idempotent-build's plugin; the stores are real H2 databases.
 */
class IdempotentHealthAutoConfigurationTest {

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
                    EndpointAutoConfiguration.class, HealthContributorAutoConfiguration.class,
                    HealthContributorRegistryAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
                    AvailabilityHealthContributorAutoConfiguration.class, AvailabilityProbesAutoConfiguration.class,
                    IdempotentHealthAutoConfiguration.class, IdempotentHealthBoot3AutoConfiguration.class))
            .withPropertyValues("management.endpoint.health.probes.enabled=true",
                    "management.endpoint.health.group.readiness.include=readinessState,idempotent",
                    "management.endpoint.health.show-details=always",
                    // A cold store's first read creates its schema, slow on a busy machine: the bound is no timing test.
                    "management.health.idempotent.timeout=30s");

    /** The tool class as compiled, and as woven: built once (javac and the weave are the slow part). */
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

    private static IdempotentRuntime unreachable() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        return IdempotentRuntime.builder().store("default", "jdbc:h2:tcp://127.0.0.1:" + closedPort + "/nowhere",
                "sa", "").build();
    }

    @Test
    void aWovenToolAndAStoreThatAnswersAreReady() throws Exception {
        try (URLClassLoader app = ToolFixture.loader(woven)) {
            assertReadiness(app, IdempotentHealthAutoConfigurationTest::reachable, Status.UP,
                    1, null, "reachable");
        }
    }

    @Test
    void aListedToolLoadedUnwrappedIsNotReadyAndNamed() throws Exception {
        try (URLClassLoader app = ToolFixture.loader(compiled)) {
            assertReadiness(app, IdempotentHealthAutoConfigurationTest::reachable, Status.DOWN,
                    0, "issueRefund", "reachable");
        }
    }

    @Test
    void aStoreThatDoesNotAnswerIsNotReadyAndNamed() throws Exception {
        IdempotentRuntime down = unreachable();
        try (URLClassLoader app = ToolFixture.loader(woven)) {
            assertReadiness(app, () -> down, Status.DOWN, 1, null,
                    "store \"default\" refused a read: ");
        }
    }

    @Test
    void offWhenTheApplicationSaysSo() {
        // A group may not name a contributor that does not exist (Boot refuses to start): drop it from the group too.
        contexts.withPropertyValues("management.health.idempotent.enabled=false",
                "management.endpoint.health.group.readiness.include=readinessState")
                .run(context -> assertThat(context).doesNotHaveBean("idempotentHealthIndicator"));
    }

    /** Runs the application on {@code app}, its class loader, and asks the readiness group as a probe would. */
    private void assertReadiness(URLClassLoader app, Supplier<IdempotentRuntime> runtime, Status status,
            long wrapped, String unwrapped, String store) {
        contexts.withClassLoader(app).withBean(IdempotentRuntime.class, runtime).run(context -> {
            assertThat(context).hasNotFailed().hasBean("idempotentHealthIndicator");
            AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
            ClassLoader previous = Thread.currentThread().getContextClassLoader();
            // As on a request thread of the application: its class loader is the thread's.
            Thread.currentThread().setContextClassLoader(app);
            try {
                var readiness = context.getBean(HealthEndpoint.class).healthForPath("readiness");
                var idempotent = (org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor)
                        ((org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor) readiness)
                                .getComponents().get("idempotent");
                assertThat(readiness.getStatus()).as("readiness, with %s", idempotent.getDetails()).isEqualTo(status);
                assertThat(idempotent.getStatus()).isEqualTo(status);
                assertThat(idempotent.getDetails()).containsEntry("listed", 1L).containsEntry("wrapped", wrapped)
                        .containsEntry("agent", false);
                assertThat(idempotent.getDetails().get("unwrapped")).isEqualTo(unwrapped);
                assertThat((String) idempotent.getDetails().get("store.default")).startsWith(store);
            } finally {
                Thread.currentThread().setContextClassLoader(previous);
            }
            closeRuntime(context);
        });
    }

    private static void closeRuntime(ConfigurableApplicationContext context) {
        context.getBean(IdempotentRuntime.class).close();
    }
}
