package io.idempotent.springboot;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.ReadinessReport;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.Environment;

/**
 * What both Boot generations' indicators check: the application's {@link IdempotentRuntime} bean,
 * or the global runtime the agent uses, with the bound {@value #TIMEOUT} (else the library's
 * setting {@code health.timeout}, default {@link ReadinessReport#DEFAULT_BOUND}).
 */
final class HealthSettings {

    /** The property that bounds the wait for the stores, e.g. {@code 500ms} or {@code 3s}. */
    static final String TIMEOUT = "management.health.idempotent.timeout";

    private final ObjectProvider<IdempotentRuntime> runtimes;
    private final Duration bound;

    HealthSettings(ObjectProvider<IdempotentRuntime> runtimes, Environment environment) {
        this.runtimes = runtimes;
        String timeout = environment.getProperty(TIMEOUT);
        this.bound = timeout == null ? null : DurationStyle.detectAndParse(timeout);
    }

    /** Checks now, within Boot's property if set, else within the library's setting {@code health.timeout}. */
    ReadinessReport check() {
        java.util.function.Supplier<IdempotentRuntime> runtime = () -> runtimes.getIfAvailable(IdempotentRuntime::global);
        return bound == null ? ReadinessReport.check(runtime) : ReadinessReport.check(runtime, bound);
    }
}
