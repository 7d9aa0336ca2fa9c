package io.idempotent.mcp.http;

import static io.idempotent.mcp.McpFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.mcp.McpFixture;
import io.idempotent.mcp.PaymentProvider;
import io.idempotent.runtime.Step;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;

/**
 * The server of docs/mcp-http.md (the SDK's Streamable HTTP servlet transport in Tomcat, the
 * refund tool wrapped, the agent attached) called by the SDK's own Java client, and by a hand-made
 * client for what that one cannot do (cancel its request, drop its connection): every refusal
 * reaches the client, and no transport event costs an effect or a result.
 */
class McpStreamableHttpIT {

    /** Per call of the no-step loop, as issue 51 asks: a lost answer would wait out the client's timeout. */
    private static final Duration ANSWER = Duration.ofSeconds(1);
    private static final Map<String, Object> REFUND = Map.of("invoiceId", "inv_1", "amountCents", 500);

    @TempDir
    Path dir;

    /** Attaches the agent before RefundTools is loaded: the agent's start must wrap it all the same. */
    @RegisterExtension
    static final McpFixture MCP = new McpFixture();

    private final PaymentProvider provider = new PaymentProvider();
    private RefundHttpServer server;
    private String step;

    @BeforeEach
    void start() throws Exception {
        server = new RefundHttpServer(provider, dir);
        MCP.closeAfter(server);
        step = "refund-approved-" + UUID.randomUUID();
    }

    /**
     * On {@code SDK_DEFAULT_SCHEDULING} this fails while the refusal is a JSON-RPC error (the SDK
     * cuts its stream now and then) and passes once refusals are isError results (issue 38).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = RefundHttpServer.Kind.class, names = {"PAGE", "SDK_DEFAULT_SCHEDULING", "STATELESS"})
    void aCallWithoutAStepIsAnsweredWithItsRefusalTwoHundredTimesInARow(RefundHttpServer.Kind kind) throws Exception {
        serve(kind);
        McpAsyncClient client = client();
        CallToolRequest noStep = new CallToolRequest("refund", REFUND, null);
        assertThat(refusal(client.callTool(noStep), WAIT)).as("the first call (class loading)").isEqualTo("missing_step");
        for (int i = 1; i <= 200; i++) {
            assertThat(refusal(client.callTool(noStep), ANSWER)).as("call %d", i).isEqualTo("missing_step");
        }
        assertThat(provider.requests()).as("a refused call runs no body").isZero();
    }

    /**
     * A refusal that is an isError result already today (a conflict), from a tool whose work runs
     * on Reactor's boundedElastic threads behind an async server: the error signal there makes
     * Reactor cancel, and interrupt, the thread that goes on to write the answer.
     */
    @Test
    void aConflictFromAToolOnAnotherThreadIsAnsweredTwoHundredTimesInARow() throws Exception {
        serve(RefundHttpServer.Kind.ASYNC_ELSEWHERE);
        McpAsyncClient client = client();
        CallToolResult first = client.callTool(new CallToolRequest("refund", REFUND, Step.asContext(step)))
                .block(WAIT);
        assertThat(text(first)).isEqualTo("re_1_inv_1_500");
        CallToolRequest changed = new CallToolRequest("refund", Map.of("invoiceId", "inv_1", "amountCents", 700),
                Step.asContext(step));
        assertThat(refusal(client.callTool(changed), WAIT)).as("the first conflict").isEqualTo("conflict");
        for (int i = 1; i <= 200; i++) {
            assertThat(refusal(client.callTool(changed), ANSWER)).as("call %d", i).isEqualTo("conflict");
        }
        assertThat(provider.effects()).isEqualTo(1);
    }

    /** Replaces the page's server with one of another kind. */
    private void serve(RefundHttpServer.Kind kind) throws Exception {
        if (kind != RefundHttpServer.Kind.PAGE) {
            MCP.closeNow(server);
            server = new RefundHttpServer(provider, dir.resolve(kind.name()), kind);
            MCP.closeAfter(server);
        }
    }

    @Test
    void twoSessionsCallingOneStepAtOnceMakeOneEffectTheSecondIsToldToRetryAndItsRepeatReplays() throws Exception {
        McpAsyncClient a = client();
        McpAsyncClient b = client();
        CallToolRequest decision = new CallToolRequest("refund", REFUND, Step.asContext(step));

        PaymentProvider.Hold hold = provider.holdNextRefund();
        CompletableFuture<CallToolResult> first = a.callTool(decision).toFuture();
        hold.awaitEntered();
        assertThat(refusal(b.callTool(decision), WAIT)).as("the second session, while the first runs")
                .isEqualTo("retry_later");
        hold.release();
        CallToolResult done = first.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        CallToolResult repeat = b.callTool(decision).block(WAIT);

        assertThat(text(done)).isEqualTo("re_1_inv_1_500");
        assertThat(text(repeat)).as("the second session's repeat replays the first one's refund").isEqualTo(text(done));
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void aCallCancelledMidBodyRunsToItsEndAndItsRepeatReplaysTheStoredResult() throws Exception {
        RawMcpSession session = new RawMcpSession(server.url());
        PaymentProvider.Hold hold = provider.holdNextRefund();
        try (RawMcpSession.Call call = session.callTool("call-1", params(step))) {
            assertThat(call.status()).startsWith("HTTP/1.1 200");
            hold.awaitEntered();
            assertThat(session.cancel("call-1")).as("the cancellation is accepted").isEqualTo(202);
        } // the client stops listening too, as an aborted fetch does
        hold.release();

        CallToolResult repeat = repeatUntilAnswered(client(), new CallToolRequest("refund", REFUND,
                Step.asContext(step)));
        assertThat(text(repeat)).as("the cancelled call's refund, stored and replayed").isEqualTo("re_1_inv_1_500");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).as("the body ran once, to its end").isEqualTo(1);
    }

    @Test
    void aConnectionDroppedMidBodyLosesNoResultTheRepeatOnANewSessionReplaysIt() throws Exception {
        RawMcpSession session = new RawMcpSession(server.url());
        PaymentProvider.Hold hold = provider.holdNextRefund();
        try (RawMcpSession.Call call = session.callTool("call-1", params(step))) {
            assertThat(call.status()).startsWith("HTTP/1.1 200");
            hold.awaitEntered();
        } // reset: the server's write of the answer fails
        hold.release();

        CallToolResult repeat = repeatUntilAnswered(client(), new CallToolRequest("refund", REFUND,
                Step.asContext(step)));
        assertThat(text(repeat)).as("the dropped call's refund, stored and replayed").isEqualTo("re_1_inv_1_500");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
        CallToolResult again = client().callTool(new CallToolRequest("refund", REFUND, Step.asContext(step)))
                .block(WAIT);
        assertThat(text(again)).as("and the server still answers new sessions").isEqualTo("re_1_inv_1_500");
    }

    /**
     * The code of the refusal a call was answered with, within {@code deadline}; the one place that
     * knows the refusal's wire form. It takes both forms deliberately: an {@code isError} result
     * whose {@code structuredContent.code} (or, before that, whose text's {@code "error"}) names it,
     * and, for a missing step, the JSON-RPC {@code -32603} error that IdempotentMcp answered until
     * refusals became results (issue 38). A call that gets no answer fails here.
     */
    static String refusal(Mono<CallToolResult> call, Duration deadline) {
        CallToolResult result;
        try {
            result = call.timeout(deadline).block();
        } catch (McpError e) {
            McpSchema.JSONRPCResponse.JSONRPCError error = e.getJsonRpcError();
            assertThat(error).as("a JSON-RPC error").isNotNull();
            assertThat(error.code()).as(error.message()).isEqualTo(McpSchema.ErrorCodes.INTERNAL_ERROR);
            assertThat(error.message()).as("the missing step's refusal").contains("cannot render the operation key");
            return "missing_step";
        } catch (RuntimeException e) {
            // a timeout, or the answer's SSE stream cut before its event (issue 51: "chunked transfer
            // encoding, state: READING_LENGTH" here, a client timeout in clients that wait for the event)
            return fail("no refusal within " + deadline + ": the answer was lost (" + e + ")", e);
        }
        assertThat(result).as("an answer").isNotNull();
        assertThat(result.isError()).as("a refusal, not a result: %s", result).isTrue();
        if (result.structuredContent() instanceof Map<?, ?> structured && structured.get("code") != null) {
            return structured.get("code").toString();
        }
        try {
            return new ObjectMapper().readTree(text(result)).path("error").asText();
        } catch (Exception e) {
            return fail("a refusal whose text is not the fixed JSON: " + text(result), e);
        }
    }

    /** Repeats a call while it is answered retry_later (its original still running): the client's advice. */
    private static CallToolResult repeatUntilAnswered(McpAsyncClient client, CallToolRequest request)
            throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            CallToolResult result = client.callTool(request).block(WAIT);
            if (!Boolean.TRUE.equals(result.isError())) {
                return result;
            }
            assertThat(refusal(Mono.just(result), WAIT)).as("the only refusal a repeat may get").isEqualTo("retry_later");
            if (System.nanoTime() > deadline) {
                return fail("still retry_later after " + WAIT);
            }
            Thread.sleep(50); // a client's pause between repeats
        }
    }

    private McpAsyncClient client() {
        return MCP.asyncClient(server.url());
    }

    private static String params(String step) {
        return "{\"name\":\"refund\",\"arguments\":{\"invoiceId\":\"inv_1\",\"amountCents\":500},"
                + "\"_meta\":{\"" + Step.CONTEXT_KEY + "\":\"" + step + "\"}}";
    }

    private static String text(CallToolResult result) {
        assertThat(result.content()).as(result.toString()).isNotEmpty();
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }
}
