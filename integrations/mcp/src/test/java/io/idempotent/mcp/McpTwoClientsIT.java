package io.idempotent.mcp;

import static io.idempotent.mcp.McpFixture.JSON;
import static io.idempotent.mcp.McpFixture.WAIT;
import static io.idempotent.mcp.McpFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.Step;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import jakarta.servlet.http.HttpServlet;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Mono;

/**
 * One MCP async server over streamable HTTP (the SDK's servlet transports in an embedded Tomcat),
 * the agent attached, and two real MCP clients calling one decision at the same time: the same
 * step in {@code _meta} and the same arguments, as two replicas of a workflow, or a client and its
 * retry on a new connection, send it. The server's tool is an asynchronous {@code @IdempotentTool}
 * (a {@code Mono} or a {@code CompletableFuture}), behind a wrapped stateful or stateless async
 * specification.
 */
class McpTwoClientsIT {

    @TempDir
    Path dir;

    @RegisterExtension
    static final McpFixture MCP = new McpFixture();

    private final PaymentProvider provider = new PaymentProvider();

    @ParameterizedTest(name = "{0} server, {1} tool")
    @CsvSource({"stateful, mono", "stateful, future", "stateless, mono", "stateless, future"})
    void twoClientsCallingOneDecisionAtOnceMakeOneEffectAndBothAreAnswered(String server, String tool)
            throws Exception {
        String url = start(server.equals("stateless"), tool.equals("mono"));
        McpAsyncClient a = MCP.asyncClient(url);
        McpAsyncClient b = MCP.asyncClient(url);
        CallToolRequest decision = new CallToolRequest("refund", Map.of("invoiceId", "inv_1", "amountCents", 500),
                Step.asContext("refund-approved-" + UUID.randomUUID()));

        // The first call to reach the provider is held there, its lease taken, until the other is answered.
        PaymentProvider.Hold hold = provider.holdNextRefund();
        CompletableFuture<CallToolResult> ofA = a.callTool(decision).toFuture();
        CompletableFuture<CallToolResult> ofB = b.callTool(decision).toFuture();
        hold.awaitEntered();
        CallToolResult whileHeld = (CallToolResult) CompletableFuture.anyOf(ofA, ofB).get(WAIT.toSeconds(),
                TimeUnit.SECONDS);
        hold.release();
        CallToolResult held = (ofA.get(WAIT.toSeconds(), TimeUnit.SECONDS) == whileHeld ? ofB : ofA)
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        McpAsyncClient waiting = ofA.get() == whileHeld ? a : b;
        CallToolResult retry = waiting.callTool(decision).block(WAIT);

        String expectedTool = tool.equals("mono") ? "mcp_refund_mono" : "mcp_refund_future";
        assertThat(whileHeld.isError()).as("the overlapping call").isTrue();
        assertThat(text(whileHeld)).isEqualTo("{\"error\":\"retry_later\",\"tool\":\"" + expectedTool + "\","
                + "\"message\":\"in progress or temporarily unavailable: call again later with identical arguments\"}");
        assertThat(held.isError()).as(held.toString()).isNotEqualTo(Boolean.TRUE);
        assertThat(text(held)).isEqualTo("re_1_inv_1_500");
        assertThat(retry.isError()).as(retry.toString()).isNotEqualTo(Boolean.TRUE);
        assertThat(text(retry)).as("the other client's retry replays the first one's refund").isEqualTo(text(held));
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    /** Starts the server in Tomcat and returns its URL. */
    private String start(boolean stateless, boolean mono) throws Exception {
        RefundTools tools = new RefundTools(provider);
        McpSchema.Tool tool = McpFixture.refundTool("refund");
        HttpServlet servlet;
        if (stateless) {
            HttpServletStatelessServerTransport transport = HttpServletStatelessServerTransport.builder()
                    .jsonMapper(JSON).messageEndpoint("/mcp").build();
            var server = McpServer.async(transport).serverInfo("refunds", "1")
                    .capabilities(McpFixture.toolsOnly())
                    .tools(IdempotentMcp.wrap(new McpStatelessServerFeatures.AsyncToolSpecification(tool,
                            (context, request) -> refund(tools, mono, request)))).build();
            MCP.closeAfter(() -> server.closeGracefully().block(WAIT));
            servlet = transport;
        } else {
            HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider
                    .builder().jsonMapper(JSON).mcpEndpoint("/mcp").build();
            var server = McpServer.async(transport).serverInfo("refunds", "1")
                    .capabilities(McpFixture.toolsOnly())
                    .tools(IdempotentMcp.wrap(new McpServerFeatures.AsyncToolSpecification(tool,
                            (exchange, request) -> refund(tools, mono, request)))).build();
            MCP.closeAfter(() -> server.closeGracefully().block(WAIT));
            servlet = transport;
        }
        return MCP.serve(servlet, dir);
    }

    /** The handler: the asynchronous tool's Mono, or its future's value. */
    private static Mono<CallToolResult> refund(RefundTools tools, boolean mono, CallToolRequest request) {
        String invoiceId = (String) request.arguments().get("invoiceId");
        long cents = ((Number) request.arguments().get("amountCents")).longValue();
        Mono<String> refund = mono ? tools.refundMono(invoiceId, cents)
                : Mono.fromFuture(() -> tools.refundFuture(invoiceId, cents));
        return refund.map(text -> CallToolResult.builder().addTextContent(text).isError(false).build());
    }
}
