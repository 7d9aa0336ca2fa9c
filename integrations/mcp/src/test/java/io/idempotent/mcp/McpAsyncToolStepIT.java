package io.idempotent.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.testing.AttachedAgent;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * Where the agent's asynchronous tools take {@code {step}} from, with the processor's real binding
 * for a {@code CallToolRequest} context parameter: the request's {@code _meta} first, then (a
 * {@code Mono}, at subscription) Reactor's {@code Context}, then the thread's {@link Step}; two that
 * differ refuse the call before the provider is reached (the rule's every case is in the runtime's
 * AsyncToolStepTest).
 */
class McpAsyncToolStepIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String REFUSED = "; the call is refused rather than guess which decision it belongs to";

    private final PaymentProvider provider = new PaymentProvider();
    private final RefundTools tools = new RefundTools(provider);
    private String step;

    @BeforeAll
    static void attachTheAgent() throws Exception {
        AttachedAgent.attach();
    }

    @BeforeEach
    void newDecision() {
        step = "decision-" + UUID.randomUUID();
    }

    private CallToolRequest request(String metaStep) {
        Map<String, Object> meta = metaStep == null ? Map.of() : Step.asContext(metaStep);
        return new CallToolRequest("refund", Map.of(), meta);
    }

    @Test
    void aMonoToolTakesTheRequestsStepThenReactorsContextAndRefusesTwoDifferentOnes() {
        String fromRequest = tools.refundMono("inv_1", 500, request(step)).block(WAIT);
        String fromContext = tools.refundMono("inv_1", 500, request(null))
                .contextWrite(Context.of(Step.CONTEXT_KEY, step)).block(WAIT);
        Throwable twoSteps = catchThrowable(() -> tools.refundMono("inv_1", 500, request(step))
                .contextWrite(Context.of(Step.CONTEXT_KEY, step + "-other")).block(WAIT));

        assertThat(fromRequest).isEqualTo("re_1_inv_1_500");
        assertThat(fromContext).as("the same decision, from the Context: a replay").isEqualTo(fromRequest);
        assertThat(twoSteps).isInstanceOf(MissingOperationKeyException.class).hasMessageContaining(
                "the context parameter request carries step \"" + step + "\" but Reactor's Context carries step \""
                        + step + "-other\"" + REFUSED);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void aFutureToolTakesTheRequestsStepThenTheThreadsAndRefusesTwoDifferentOnesAtTheCall() throws Exception {
        String fromRequest = tools.refundFuture("inv_1", 500, request(step)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        String fromThread;
        Throwable twoSteps;
        try (Step ignored = Step.begin(step)) {
            fromThread = tools.refundFuture("inv_1", 500, request(null)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            twoSteps = catchThrowable(() -> tools.refundFuture("inv_1", 500, request(step + "-other")));
        }

        assertThat(fromRequest).isEqualTo("re_1_inv_1_500");
        assertThat(fromThread).as("the same decision, from the thread: a replay").isEqualTo(fromRequest);
        assertThat(twoSteps).isInstanceOf(MissingOperationKeyException.class).hasMessageContaining(
                "the context parameter request carries step \"" + step + "-other\" but the thread's Step is \""
                        + step + "\"" + REFUSED);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void anAsyncToolsResultsSayReplayAndKeyLikeASyncTools() {
        McpSchema.Tool tool = McpSchema.Tool.builder().name("refund").description("Refund").inputSchema(
                new JacksonMcpJsonMapper(new ObjectMapper()), "{\"type\":\"object\"}").build();
        McpServerFeatures.AsyncToolSpecification mono = IdempotentMcp.wrap(new McpServerFeatures.AsyncToolSpecification(
                tool, (exchange, request) -> tools.refundMono("inv_1", 500, request).map(McpAsyncToolStepIT::text)));
        McpServerFeatures.AsyncToolSpecification future = IdempotentMcp.wrap(new McpServerFeatures
                .AsyncToolSpecification(tool, (exchange, request) -> Mono.fromFuture(() -> tools.refundFuture("inv_2",
                        700, request)).map(McpAsyncToolStepIT::text)));

        CallToolResult executed = mono.callHandler().apply(null, request(step)).block(WAIT);
        CallToolResult replayed = mono.callHandler().apply(null, request(step)).block(WAIT);
        CallToolResult futureExecuted = future.callHandler().apply(null, request(step + "-f")).block(WAIT);
        CallToolResult futureReplayed = future.callHandler().apply(null, request(step + "-f")).block(WAIT);

        assertThat(executed.meta()).as(executed.toString()).containsEntry("io.idempotent/replay", false)
                .containsKey("io.idempotent/key");
        assertThat(replayed.meta()).containsEntry("io.idempotent/replay", true)
                .containsEntry("io.idempotent/key", executed.meta().get("io.idempotent/key"));
        assertThat(futureExecuted.meta()).as(futureExecuted.toString()).containsEntry("io.idempotent/replay", false);
        assertThat(futureReplayed.meta()).containsEntry("io.idempotent/replay", true)
                .containsEntry("io.idempotent/key", futureExecuted.meta().get("io.idempotent/key"));
        assertThat(futureReplayed.meta().get("io.idempotent/key")).isNotEqualTo(executed.meta().get("io.idempotent/key"));
        assertThat(provider.requests()).isEqualTo(2);
    }

    private static CallToolResult text(String value) {
        return CallToolResult.builder().addTextContent(value).build();
    }
}
