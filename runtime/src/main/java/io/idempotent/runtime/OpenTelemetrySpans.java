package io.idempotent.runtime;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import java.util.Locale;

/**
 * Puts what the protocol decided onto the current OpenTelemetry span of a tool call (the span
 * the caller, a framework or the OpenTelemetry agent opened around it):
 * {@code idempotent.tool}, {@code idempotent.outcome} ({@code executed}, {@code replayed},
 * {@code payload_conflict}, {@code awaiting_approval}, {@code approval_denied} ...) and
 * {@code idempotent.replay}; the operation key
 * ({@code idempotent.operation_key}) only when asked for, since keys may carry business
 * identifiers. Needs {@code io.opentelemetry:opentelemetry-api} on the class path (an optional
 * dependency of the runtime); without a current span it does nothing.
 */
public final class OpenTelemetrySpans implements MetricsListener {

    /** The tool's name. */
    public static final AttributeKey<String> TOOL = AttributeKey.stringKey("idempotent.tool");
    /** How the call was answered, {@link CallOutcome} in lower case. */
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("idempotent.outcome");
    /** Whether the call was answered from the store without running the body. */
    public static final AttributeKey<Boolean> REPLAY = AttributeKey.booleanKey("idempotent.replay");
    /** The operation key; only with {@link #withOperationKeys()}. */
    public static final AttributeKey<String> OPERATION_KEY = AttributeKey.stringKey("idempotent.operation_key");

    private final boolean recordKeys;

    private OpenTelemetrySpans(boolean recordKeys) {
        this.recordKeys = recordKeys;
    }

    /** Tool, outcome and replay on the current span; no operation keys. */
    public static OpenTelemetrySpans create() {
        return new OpenTelemetrySpans(false);
    }

    /** As {@link #create()}, and the operation key too. */
    public static OpenTelemetrySpans withOperationKeys() {
        return new OpenTelemetrySpans(true);
    }

    @Override
    public void answered(String tool, String key, CallOutcome outcome) {
        Span span = Span.current();
        if (!span.getSpanContext().isValid()) {
            return;
        }
        span.setAttribute(TOOL, tool);
        span.setAttribute(OUTCOME, outcome.name().toLowerCase(Locale.ROOT));
        span.setAttribute(REPLAY, outcome == CallOutcome.REPLAYED);
        if (recordKeys) {
            span.setAttribute(OPERATION_KEY, key);
        }
    }
}
