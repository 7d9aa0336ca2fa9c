package io.idempotent.runtime;

import io.idempotent.runtime.internal.RuntimeConfiguration;
import java.util.Optional;

/**
 * Whether the tool calls of a runtime {@linkplain IdempotentRuntime#fromEnvironment() from the
 * environment} put their outcome on the current OpenTelemetry span ({@link OpenTelemetrySpans}):
 * only when every OpenTelemetry class it links against is on the class path, and then with the
 * operation key only when {@code telemetry.operation-keys=true}. Apart from the runtime because
 * OpenTelemetry is an optional dependency: a partial or mismatched one means "no spans", never a
 * runtime that fails, and the check must not touch {@link OpenTelemetrySpans} before it passed.
 */
final class OpenTelemetryChoice {

    private OpenTelemetryChoice() {
    }

    /**
     * The listener that puts each call's outcome on its span, or empty when OpenTelemetry is not
     * on the class path, or is but cannot be used (then said once on {@code log}).
     */
    static Optional<MetricsListener> spans(RuntimeConfiguration configuration, System.Logger log) {
        if (openTelemetryPresent()) {
            // The application traces: each tool call's span says what the protocol decided.
            try {
                return Optional.of(configuration.flag("telemetry.operation-keys")
                        ? OpenTelemetrySpans.withOperationKeys() : OpenTelemetrySpans.create());
            } catch (LinkageError e) {
                log.log(System.Logger.Level.WARNING,
                        "OpenTelemetry is on the class path but cannot be used (" + e + "); tool calls get no span"
                                + " attributes");
            }
        }
        return Optional.empty();
    }

    /**
     * Whether every OpenTelemetry class {@link OpenTelemetrySpans} links against is on the class
     * path. Checked here, not in that class: touching it would run its initialiser, which needs
     * them. A partial or mismatched OpenTelemetry means "no spans", never a runtime that fails.
     */
    private static boolean openTelemetryPresent() {
        for (String name : new String[] {"io.opentelemetry.api.trace.Span", "io.opentelemetry.api.trace.SpanContext",
            "io.opentelemetry.api.common.AttributeKey", "io.opentelemetry.context.Context"}) {
            try {
                Class.forName(name, true, OpenTelemetryChoice.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
        return true;
    }
}
