package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.internal.RuntimeAccess;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The rule behind every framework's readiness check, where the runtime itself cannot be had. */
class ReadinessReportTest {

    @AfterEach
    void reset() {
        System.clearProperty("idempotent.health.timeout");
        RuntimeAccess.forgetGlobal();
    }

    private static IdempotentRuntime memoryRuntime() {
        return IdempotentRuntime.builder().store("default", "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                "sa", "").build();
    }

    @Test
    void aStoreThatAnswersAndNoListedToolIsReady() {
        try (IdempotentRuntime runtime = memoryRuntime()) {
            ReadinessReport report = ReadinessReport.check(() -> runtime, Duration.ofSeconds(30));
            assertThat(report.ready()).isTrue();
            assertThat(report.details()).containsEntry("listed", 0L).containsEntry("wrapped", 0L)
                    .containsEntry("store.default", "reachable").doesNotContainKey("unwrapped");
        }
    }

    @Test
    void aClosedGlobalRuntimeIsNotReadyAndSaysSo() {
        IdempotentRuntime closed = memoryRuntime();
        closed.close();
        IdempotentRuntime.setGlobal(closed);
        ReadinessReport report = ReadinessReport.check(IdempotentRuntime::global);
        assertThat(report.ready()).isFalse();
        assertThat((String) report.details().get("store.runtime"))
                .contains("the application's global IdempotentRuntime was closed");
    }

    @Test
    void aTimeoutSettingThatIsNoDurationIsNotReadyAndNamed() {
        System.setProperty("idempotent.health.timeout", "soon");
        try (IdempotentRuntime runtime = memoryRuntime()) {
            ReadinessReport report = ReadinessReport.check(() -> runtime);
            assertThat(report.ready()).isFalse();
            assertThat((String) report.details().get("store.runtime")).contains("idempotent.health.timeout");
        }
    }
}
