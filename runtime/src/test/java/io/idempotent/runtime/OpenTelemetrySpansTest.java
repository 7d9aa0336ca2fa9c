package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Span attributes of tool calls, exported by the OpenTelemetry SDK's in-memory exporter. */
class OpenTelemetrySpansTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider tracing = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    private final Tracer tracer = tracing.get("test");

    private <T> T inSpan(String name, Supplier<T> call) {
        Span span = tracer.spanBuilder(name).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            return call.get();
        } finally {
            span.end();
        }
    }

    private SpanData exported(String name) {
        List<SpanData> spans = exporter.getFinishedSpanItems();
        return spans.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
    }

    @OnBothDatabases
    void eachCallsSpanSaysWhatTheProtocolDecidedWithoutTheKey(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(OpenTelemetrySpans.create()).build());
        Map<String, Object> payload = Map.of("invoiceId", "inv_1");
        inSpan("first", () -> runtime.call(REFUND, "refund:inv_1", payload, String.class, () -> "refunded"));
        inSpan("repeat", () -> runtime.call(REFUND, "refund:inv_1", payload, String.class, () -> "again"));
        inSpan("changed", () -> {
            assertThatThrownBy(() -> runtime.call(REFUND, "refund:inv_1", Map.of("invoiceId", "inv_2"), String.class,
                    () -> "other")).isInstanceOf(PayloadConflictException.class);
            return null;
        });

        assertThat(exported("first").getAttributes().get(OpenTelemetrySpans.TOOL)).isEqualTo("refund");
        assertThat(exported("first").getAttributes().get(OpenTelemetrySpans.OUTCOME)).isEqualTo("executed");
        assertThat(exported("first").getAttributes().get(OpenTelemetrySpans.REPLAY)).isFalse();
        assertThat(exported("repeat").getAttributes().get(OpenTelemetrySpans.OUTCOME)).isEqualTo("replayed");
        assertThat(exported("repeat").getAttributes().get(OpenTelemetrySpans.REPLAY)).isTrue();
        assertThat(exported("changed").getAttributes().get(OpenTelemetrySpans.OUTCOME)).isEqualTo("payload_conflict");
        assertThat(exporter.getFinishedSpanItems()).allSatisfy(span ->
                assertThat(span.getAttributes().get(OpenTelemetrySpans.OPERATION_KEY)).isNull());
    }

    @OnBothDatabases
    void anApprovalToolsSpansSayItAwaitsApprovalThenThatItWasDenied(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(OpenTelemetrySpans.create()).build());
        ToolPolicy payout = Policies.downstreamKey("payout", Retry.SAFE).approval(Approval.REQUIRED).build();
        Map<String, Object> payload = Map.of("payee", "acme", "amountCents", 90_000);
        for (String span : new String[] {"asked", "asked again"}) {
            inSpan(span, () -> {
                assertThatThrownBy(() -> runtime.call(payout, "payout:acme", payload, String.class, () -> "paid"))
                        .isInstanceOf(ApprovalPendingException.class);
                return null;
            });
        }
        PendingApproval pending = runtime.approvals().pending("default", "payout", 0, 10).get(0);
        runtime.approvals().deny("default", "payout", "payout:acme", pending.payloadHash(), "alice", "over the limit");
        inSpan("denied", () -> {
            assertThatThrownBy(() -> runtime.call(payout, "payout:acme", payload, String.class, () -> "paid"))
                    .isInstanceOf(ApprovalDeniedException.class);
            return null;
        });

        for (String span : new String[] {"asked", "asked again"}) {
            assertThat(exported(span).getAttributes().get(OpenTelemetrySpans.TOOL)).isEqualTo("payout");
            assertThat(exported(span).getAttributes().get(OpenTelemetrySpans.OUTCOME)).as(span)
                    .isEqualTo("awaiting_approval");
            assertThat(exported(span).getAttributes().get(OpenTelemetrySpans.REPLAY)).isFalse();
        }
        assertThat(exported("denied").getAttributes().get(OpenTelemetrySpans.OUTCOME)).isEqualTo("approval_denied");
        assertThat(exported("denied").getAttributes().get(OpenTelemetrySpans.REPLAY)).isFalse();
        assertThat(exporter.getFinishedSpanItems()).allSatisfy(span ->
                assertThat(span.getAttributes().get(OpenTelemetrySpans.OPERATION_KEY)).isNull());
    }

    @OnBothDatabases
    void theOperationKeyOnlyWhenAskedFor(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(OpenTelemetrySpans.withOperationKeys())
                .build());
        inSpan("call", () -> runtime.call(REFUND, "refund:inv_7", Map.of("invoiceId", "inv_7"), String.class,
                () -> "refunded"));
        assertThat(exported("call").getAttributes().get(OpenTelemetrySpans.OPERATION_KEY)).isEqualTo("refund:inv_7");
    }

    /**
     * The path of the agent's runtime: one {@linkplain IdempotentRuntime#fromEnvironment() from the
     * environment} finds OpenTelemetry on the class path and puts each call's outcome on its span,
     * with the operation key because {@code telemetry.operation-keys} asks for it.
     */
    @OnBothDatabases
    void aRuntimeFromTheEnvironmentPutsEachCallsOutcomeOnItsSpan(TestDatabase db) {
        Map<String, String> properties = Map.of("idempotent.store.url", db.url(), "idempotent.store.user", db.user(),
                "idempotent.store.password", db.password(), "idempotent.telemetry.operation-keys", "true");
        properties.forEach(System::setProperty);
        try (IdempotentRuntime runtime = IdempotentRuntime.fromEnvironment()) {
            inSpan("call", () -> runtime.call(REFUND, "refund:inv_9", Map.of("invoiceId", "inv_9"), String.class,
                    () -> "refunded"));
        } finally {
            properties.keySet().forEach(System::clearProperty);
        }
        assertThat(exported("call").getAttributes().get(OpenTelemetrySpans.OUTCOME)).isEqualTo("executed");
        assertThat(exported("call").getAttributes().get(OpenTelemetrySpans.OPERATION_KEY)).isEqualTo("refund:inv_9");
    }

    @OnBothDatabases
    void withoutASpanNothingHappensAndTheCallRuns(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(OpenTelemetrySpans.create()).build());
        assertThat(runtime.call(REFUND, "refund:inv_8", Map.of("invoiceId", "inv_8"), String.class, () -> "ok"))
                .isEqualTo("ok");
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }
}
