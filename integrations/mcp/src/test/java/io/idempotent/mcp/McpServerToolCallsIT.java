package io.idempotent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.Step;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** A real McpServer.sync over an in-process stdio transport, the agent attached. */
class McpServerToolCallsIT {

    @RegisterExtension
    static final McpFixture MCP = new McpFixture();

    private PaymentProvider provider;
    private PipedMcpClient client;
    private String step;

    private McpServerFeatures.SyncToolSpecification refundSpecification() {
        RefundTools tools = new RefundTools(provider);
        McpSchema.Tool tool = McpFixture.refundTool("refund");
        return new McpServerFeatures.SyncToolSpecification(tool, (exchange, request) -> {
            Map<String, Object> args = request.arguments();
            String refund = tools.issueRefund((String) args.get("invoiceId"), ((Number) args.get("amountCents"))
                    .longValue());
            return CallToolResult.builder().addTextContent(refund).isError(false).build();
        });
    }

    private McpServerFeatures.AsyncToolSpecification asyncRefundSpecification(boolean elsewhere) {
        RefundTools tools = new RefundTools(provider);
        McpSchema.Tool tool = McpFixture.refundTool("refund");
        return new McpServerFeatures.AsyncToolSpecification(tool, (exchange, request) -> {
            String invoiceId = (String) request.arguments().get("invoiceId");
            long cents = ((Number) request.arguments().get("amountCents")).longValue();
            Mono<String> refund = elsewhere
                    ? Mono.fromCallable(() -> tools.issueRefund(invoiceId, cents, request))
                            .subscribeOn(Schedulers.boundedElastic())
                    : Mono.fromCallable(() -> tools.issueRefund(invoiceId, cents));
            return refund.map(text -> CallToolResult.builder().addTextContent(text).isError(false).build());
        });
    }

    /** A server tool whose handler returns an asynchronous @IdempotentTool's value: its Mono, or its future's. */
    private McpServerFeatures.AsyncToolSpecification asyncToolSpecification(boolean mono) {
        RefundTools tools = new RefundTools(provider);
        McpSchema.Tool tool = McpFixture.refundTool("refund");
        return new McpServerFeatures.AsyncToolSpecification(tool, (exchange, request) -> {
            String invoiceId = (String) request.arguments().get("invoiceId");
            long cents = ((Number) request.arguments().get("amountCents")).longValue();
            Mono<String> refund = mono ? tools.refundMono(invoiceId, cents)
                    : Mono.fromFuture(() -> tools.refundFuture(invoiceId, cents));
            return refund.map(text -> CallToolResult.builder().addTextContent(text).isError(false).build());
        });
    }

    private void startAsync(McpServerFeatures.AsyncToolSpecification spec) throws Exception {
        client = MCP.asyncServer(spec);
    }

    private void start(boolean wrapped) throws Exception {
        McpServerFeatures.SyncToolSpecification spec = refundSpecification();
        client = MCP.syncServer("refunds", List.of(wrapped ? IdempotentMcp.wrap(spec) : spec));
    }

    @BeforeEach
    void setUp() {
        provider = new PaymentProvider();
        step = "refund-approved-" + UUID.randomUUID();
    }

    private Map<String, Object> refund(long cents) {
        return Map.of("invoiceId", "inv_1", "amountCents", cents);
    }

    @Test
    void twoOverlappingCallsWithTheSameStepFromTwoThreadsMakeOneEffectAndARetryReplays() throws Exception {
        start(true);
        PaymentProvider.Hold hold = provider.holdNextRefund();
        CompletableFuture<JsonNode> first = CompletableFuture.supplyAsync(() -> call(refund(500)), caller("first"));
        // The first call is inside the tool body (its lease held) until the second has been answered.
        hold.awaitEntered();
        JsonNode overlapping = CompletableFuture.supplyAsync(() -> call(refund(500)), caller("second"))
                .get(30, TimeUnit.SECONDS);
        hold.release();
        JsonNode completed = first.get(30, TimeUnit.SECONDS);
        JsonNode retry = call(refund(500));

        assertThat(overlapping.has("error")).as(overlapping.toString()).isFalse();
        assertThat(overlapping.at("/result/isError").asBoolean()).isTrue();
        assertThat(text(overlapping)).isEqualTo("{\"error\":\"retry_later\",\"tool\":\"mcp_refund\",\"message\":"
                + "\"in progress or temporarily unavailable: call again later with identical arguments\"}");
        assertThat(completed.at("/result/isError").asBoolean()).as(completed.toString()).isFalse();
        assertThat(text(completed)).isEqualTo("re_1_inv_1_500");
        assertThat(retry.at("/result/content")).isEqualTo(completed.at("/result/content"));
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    /** A thread of its own per caller, so the two requests really come from two threads. */
    private static Executor caller(String name) {
        return task -> {
            Thread t = new Thread(task, "mcp-caller-" + name);
            t.setDaemon(true);
            t.start();
        };
    }

    @Test
    void changedArgumentsUnderTheSameStepAnswerIsErrorNotAJsonRpcError() throws Exception {
        start(true);
        call(refund(500));
        JsonNode changed = call(refund(700));

        assertThat(changed.has("error")).as(changed.toString()).isFalse();
        assertThat(changed.at("/result/isError").asBoolean()).isTrue();
        assertThat(text(changed)).isEqualTo("{\"error\":\"conflict\",\"tool\":\"mcp_refund\",\"message\":\"this"
                + " decision was already executed with different arguments: do not retry with changed arguments\"}");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void aToolAwaitingApprovalAnswersIsErrorToWaitWithTheSameArgumentsThenThatItWasDenied() throws Exception {
        PayoutTools tools = new PayoutTools(provider);
        McpSchema.Tool tool = McpSchema.Tool.builder().name("payout").description("Pay a supplier's invoice")
                .inputSchema(McpFixture.JSON, McpFixture.SCHEMA).build();
        client = MCP.syncServer("payouts", List.of(IdempotentMcp.wrap(new McpServerFeatures.SyncToolSpecification(
                tool, (exchange, request) -> CallToolResult.builder().addTextContent(tools.payInvoice(
                        (String) request.arguments().get("invoiceId"),
                        ((Number) request.arguments().get("amountCents")).longValue())).build()))));
        Map<String, Object> payout = Map.of("invoiceId", "inv_7", "amountCents", 90_000);

        JsonNode asked = client.callTool("payout", payout, Step.asContext(step));
        JsonNode again = client.callTool("payout", payout, Step.asContext(step));
        PendingApproval pending = IdempotentRuntime.global().approvals().pending("default", "mcp_payout", 0, 100)
                .stream().filter(p -> p.key().equals("payout:" + step)).findFirst().orElseThrow();
        IdempotentRuntime.global().approvals().deny("mcp_payout", "payout:" + step, pending.payloadHash(), "alice",
                "over the supplier's limit");
        JsonNode denied = client.callTool("payout", payout, Step.asContext(step));

        for (JsonNode waiting : new JsonNode[] {asked, again}) {
            assertThat(waiting.has("error")).as(waiting.toString()).isFalse();
            assertThat(waiting.at("/result/isError").asBoolean()).as(waiting.toString()).isTrue();
            assertThat(text(waiting)).isEqualTo("{\"error\":\"approval_pending\",\"tool\":\"mcp_payout\",\"message\":"
                    + "\"the decision waits for a person's approval: do not re-plan and do not change the arguments,"
                    + " call again later with the same arguments\"}");
        }
        assertThat(denied.at("/result/isError").asBoolean()).as(denied.toString()).isTrue();
        assertThat(text(denied)).isEqualTo("{\"error\":\"approval_denied\",\"tool\":\"mcp_payout\",\"message\":"
                + "\"a person denied this decision: do not retry, and do not try another way to do the same thing\"}");
        assertThat(provider.requests()).isZero();
        assertThat(IdempotentRuntime.global().operations().find("mcp_payout", "payout:" + step).orElseThrow().status())
                .isEqualTo(OperationStatus.DENIED);
    }

    @Test
    void withoutTheWrapperAToolFailureIsAJsonRpcInternalError() throws Exception {
        start(false);
        try (Step ignored = Step.begin(step)) {
            // Unwrapped, nothing reads _meta: the thread-local is on this thread, not the server's.
            JsonNode missing = call(refund(500));
            assertThat(missing.at("/error/code").asInt()).as(missing.toString()).isEqualTo(-32603);
        }
        assertThat(provider.requests()).isZero();
    }

    @Test
    void anAsyncServerToolReadsTheStepFromMetaReplaysARepeatAndAnswersAConflictAsIsError() throws Exception {
        startAsync(IdempotentMcp.wrap(asyncRefundSpecification(false)));
        JsonNode first = call(refund(500));
        JsonNode repeat = call(refund(500));
        JsonNode changed = call(refund(700));

        assertThat(first.at("/result/isError").asBoolean()).as(first.toString()).isFalse();
        assertThat(text(first)).isEqualTo("re_1_inv_1_500");
        assertThat(repeat.at("/result/content")).isEqualTo(first.at("/result/content"));
        assertThat(changed.has("error")).as(changed.toString()).isFalse();
        assertThat(changed.at("/result/isError").asBoolean()).isTrue();
        assertThat(text(changed)).isEqualTo("{\"error\":\"conflict\",\"tool\":\"mcp_refund\",\"message\":\"this"
                + " decision was already executed with different arguments: do not retry with changed arguments\"}");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @ParameterizedTest(name = "mono = {0}")
    @ValueSource(booleans = {true, false})
    void anAsynchronousIdempotentToolBehindAnAsyncServerMakesOneEffectReplaysAndAnswersAConflictAsIsError(boolean mono)
            throws Exception {
        startAsync(IdempotentMcp.wrap(asyncToolSpecification(mono)));
        JsonNode first = call(refund(500));
        JsonNode repeat = call(refund(500));
        JsonNode changed = call(refund(700));

        assertThat(first.at("/result/isError").asBoolean()).as(first.toString()).isFalse();
        assertThat(text(first)).isEqualTo("re_1_inv_1_500");
        assertThat(repeat.at("/result/content")).isEqualTo(first.at("/result/content"));
        assertThat(changed.has("error")).as(changed.toString()).isFalse();
        assertThat(changed.at("/result/isError").asBoolean()).isTrue();
        assertThat(text(changed)).isEqualTo("{\"error\":\"conflict\",\"tool\":\"" + (mono ? "mcp_refund_mono"
                : "mcp_refund_future") + "\",\"message\":\"this decision was already executed with different"
                + " arguments: do not retry with changed arguments\"}");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void anAsyncToolThatMovesItsWorkToAnotherThreadReadsTheStepFromItsRequestParameter() throws Exception {
        startAsync(IdempotentMcp.wrap(asyncRefundSpecification(true)));
        JsonNode first = call(refund(500));
        JsonNode repeat = call(refund(500));

        assertThat(first.at("/result/isError").asBoolean()).as(first.toString()).isFalse();
        assertThat(repeat.at("/result/content")).isEqualTo(first.at("/result/content"));
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
        assertThat(provider.threads()).allSatisfy(t -> assertThat(t).startsWith("boundedElastic"));
    }

    @Test
    void withoutTheWrapperAnAsyncToolFailureIsAJsonRpcInternalError() throws Exception {
        startAsync(asyncRefundSpecification(false));
        JsonNode missing = call(refund(500));

        assertThat(missing.at("/error/code").asInt()).as(missing.toString()).isEqualTo(-32603);
        assertThat(provider.requests()).isZero();
    }

    @Test
    void theStatelessAsyncToolIsWrappedToo() {
        RefundTools tools = new RefundTools(provider);
        McpSchema.Tool tool = McpSchema.Tool.builder().name("refund").inputSchema(McpFixture.JSON, McpFixture.SCHEMA)
                .build();
        McpStatelessServerFeatures.AsyncToolSpecification spec = IdempotentMcp.wrap(
                new McpStatelessServerFeatures.AsyncToolSpecification(tool, (context, request) -> Mono.fromCallable(
                        () -> CallToolResult.builder().addTextContent(tools.issueRefund(
                                (String) request.arguments().get("invoiceId"),
                                ((Number) request.arguments().get("amountCents")).longValue())).build())));
        Map<String, Object> meta = Step.asContext(step);

        CallToolResult first = spec.callHandler().apply(McpTransportContext.EMPTY,
                new CallToolRequest("refund", refund(500), meta)).block(Duration.ofSeconds(30));
        CallToolResult replay = spec.callHandler().apply(McpTransportContext.EMPTY,
                new CallToolRequest("refund", refund(500), meta)).block(Duration.ofSeconds(30));
        CallToolResult conflict = spec.callHandler().apply(McpTransportContext.EMPTY,
                new CallToolRequest("refund", refund(900), meta)).block(Duration.ofSeconds(30));

        assertThat(first.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(replay.content()).isEqualTo(first.content());
        assertThat(conflict.isError()).isTrue();
        assertThat(((McpSchema.TextContent) conflict.content().get(0)).text()).contains("\"error\":\"conflict\"");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void aStatelessAsyncServerToolReturningAnAsynchronousIdempotentToolsMonoIsWrappedToo() {
        RefundTools tools = new RefundTools(provider);
        McpSchema.Tool tool = McpSchema.Tool.builder().name("refund").inputSchema(McpFixture.JSON, McpFixture.SCHEMA)
                .build();
        McpStatelessServerFeatures.AsyncToolSpecification spec = IdempotentMcp.wrap(
                new McpStatelessServerFeatures.AsyncToolSpecification(tool, (context, request) -> tools.refundMono(
                        (String) request.arguments().get("invoiceId"),
                        ((Number) request.arguments().get("amountCents")).longValue())
                        .map(text -> CallToolResult.builder().addTextContent(text).build())));
        Map<String, Object> meta = Step.asContext(step);

        CallToolResult first = spec.callHandler().apply(McpTransportContext.EMPTY,
                new CallToolRequest("refund", refund(500), meta)).block(Duration.ofSeconds(30));
        CallToolResult replay = spec.callHandler().apply(McpTransportContext.EMPTY,
                new CallToolRequest("refund", refund(500), meta)).block(Duration.ofSeconds(30));
        CallToolResult conflict = spec.callHandler().apply(McpTransportContext.EMPTY,
                new CallToolRequest("refund", refund(900), meta)).block(Duration.ofSeconds(30));

        assertThat(first.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(replay.content()).isEqualTo(first.content());
        assertThat(conflict.isError()).isTrue();
        assertThat(((McpSchema.TextContent) conflict.content().get(0)).text())
                .contains("\"error\":\"conflict\"").contains("mcp_refund_mono");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void theStatelessHandlerIsWrappedToo() {
        RefundTools tools = new RefundTools(provider);
        BiFunction<McpTransportContext, CallToolRequest, CallToolResult> handler = IdempotentMcp.wrap(
                (context, request) -> CallToolResult.builder().addTextContent(tools.issueRefund(
                        (String) request.arguments().get("invoiceId"),
                        ((Number) request.arguments().get("amountCents")).longValue())).build());
        Map<String, Object> meta = Step.asContext(step);

        CallToolResult first = handler.apply(McpTransportContext.EMPTY, new CallToolRequest("refund", refund(500), meta));
        CallToolResult replay = handler.apply(McpTransportContext.EMPTY, new CallToolRequest("refund", refund(500), meta));
        CallToolResult conflict = handler.apply(McpTransportContext.EMPTY,
                new CallToolRequest("refund", refund(900), meta));

        assertThat(replay.content()).isEqualTo(first.content());
        assertThat(conflict.isError()).isTrue();
        assertThat(((McpSchema.TextContent) conflict.content().get(0)).text()).contains("\"error\":\"conflict\"");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    /** One client's own sync server over stdio (the transport of a server one client owns), scoped. */
    private record Connection(PipedMcpClient client) {
        JsonNode call(Map<String, Object> arguments, String step) throws Exception {
            return client.callTool("refund", arguments, Step.asContext(step));
        }
    }

    private Connection connect(StepScope scope) throws Exception {
        return new Connection(MCP.syncServer("refunds", List.of(IdempotentMcp.wrap(refundSpecification(), scope))));
    }

    @Test
    void twoClientsSendingTheSameStepToScopedServersMakeTwoEffectsAndEachRetryReplaysItsOwn() throws Exception {
        // Each connection's server knows its client (as an authenticating transport would).
        Connection a = connect(context -> "client-a");
        Connection b = connect(context -> "client-b");
        JsonNode firstOfA = a.call(refund(500), step);
        JsonNode firstOfB = b.call(refund(500), step);
        JsonNode retryOfA = a.call(refund(500), step);

        assertThat(text(firstOfA)).isEqualTo("re_1_inv_1_500");
        assertThat(text(firstOfB)).as("client b is not answered with client a's refund")
                .isEqualTo("re_2_inv_1_500");
        assertThat(retryOfA.at("/result/content")).isEqualTo(firstOfA.at("/result/content"));
        assertThat(provider.effects()).isEqualTo(2);
        assertThat(provider.requests()).isEqualTo(2);
    }

    @Test
    void withoutAScopeTwoClientsSendingTheSameStepShareOneOperation() throws Exception {
        // Why a shared server needs a scope: the second client gets the first one's stored refund.
        Connection a = connect(context -> "shared");
        Connection b = connect(context -> "shared");
        JsonNode firstOfA = a.call(refund(500), step);
        JsonNode firstOfB = b.call(refund(500), step);
        assertThat(firstOfB.at("/result/content")).isEqualTo(firstOfA.at("/result/content"));
        assertThat(provider.effects()).isEqualTo(1);
    }

    @Test
    void aScopedServerRefusesAStepFromARequestWithoutAClientBeforeTheBodyRuns() throws Exception {
        // stdio carries no authenticated client, so the context has no client_id.
        Connection anonymous = connect(StepScope.fromContext("client_id"));
        JsonNode refused = anonymous.call(refund(500), step);
        assertThat(refused.at("/error/code").asInt()).as(refused.toString()).isEqualTo(-32603);
        assertThat(refused.at("/error/message").asText()).contains("StepScope");
        assertThat(provider.requests()).isZero();
    }

    @Test
    void aScopedStatelessHandlerKeepsEachAuthenticatedClientsStepsApart() {
        RefundTools tools = new RefundTools(provider);
        // This tool reads {step} from its CallToolRequest parameter as well as from the thread.
        BiFunction<McpTransportContext, CallToolRequest, CallToolResult> handler = IdempotentMcp.wrap(
                (context, request) -> CallToolResult.builder().addTextContent(tools.issueRefund(
                        (String) request.arguments().get("invoiceId"),
                        ((Number) request.arguments().get("amountCents")).longValue(), request)).build(),
                StepScope.fromContext("client_id"));
        McpTransportContext a = McpTransportContext.create(Map.of("client_id", "a"));
        McpTransportContext b = McpTransportContext.create(Map.of("client_id", "b"));
        McpTransportContext slashed = McpTransportContext.create(Map.of("client_id", "a/" + step));

        CallToolResult firstOfA = handler.apply(a, new CallToolRequest("refund", refund(500), Step.asContext(step)));
        CallToolResult firstOfB = handler.apply(b, new CallToolRequest("refund", refund(500), Step.asContext(step)));
        CallToolResult retryOfA = handler.apply(a, new CallToolRequest("refund", refund(500), Step.asContext(step)));
        // Client "a/STEP" sending step "x" is not client "a" sending step "STEP/x".
        CallToolResult ofSlashed = handler.apply(slashed, new CallToolRequest("refund", refund(500),
                Step.asContext("x")));
        CallToolResult crafted = handler.apply(a, new CallToolRequest("refund", refund(500),
                Step.asContext(step + "/x")));

        assertThat(firstOfA.isError()).as(firstOfA.toString()).isNotEqualTo(Boolean.TRUE);
        assertThat(retryOfA.content()).isEqualTo(firstOfA.content());
        assertThat(firstOfB.content()).isNotEqualTo(firstOfA.content());
        assertThat(crafted.content()).isNotEqualTo(ofSlashed.content());
        assertThat(provider.effects()).isEqualTo(4);
    }

    @Test
    void aScopedAsyncToolThatReadsItsStepFromTheRequestOnAnotherThreadReplaysItsClientsRetry() throws Exception {
        startAsync(IdempotentMcp.wrap(asyncRefundSpecification(true), context -> "client-a"));
        JsonNode first = call(refund(500));
        JsonNode retry = call(refund(500));
        assertThat(text(first)).as(first.toString()).isEqualTo("re_1_inv_1_500");
        assertThat(retry.at("/result/content")).isEqualTo(first.at("/result/content"));
        assertThat(provider.effects()).isEqualTo(1);
    }

    private JsonNode call(Map<String, Object> arguments) {
        try {
            return client.callTool("refund", arguments, Step.asContext(step));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String text(JsonNode response) {
        return response.at("/result/content/0/text").asText();
    }
}
