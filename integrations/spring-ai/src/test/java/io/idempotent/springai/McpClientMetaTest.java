package io.idempotent.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.Step;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.mcp.SyncMcpToolCallback;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.tool.ToolCallback;

/**
 * The client side: a real Spring AI MCP tool callback (SyncMcpToolCallback on the SDK's
 * McpSyncClient) called by ChatClient with a scripted model, against a real McpServer.sync in
 * process; the server records the _meta of every tools/call it receives.
 */
class McpClientMetaTest {

    private static final String REFUND = "{\"invoiceId\":\"inv_1\",\"amountCents\":500}";
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"invoiceId\":{\"type\":\"string\"},"
            + "\"amountCents\":{\"type\":\"integer\"}}}";

    private final List<Map<String, Object>> receivedMeta = new CopyOnWriteArrayList<>();
    private McpSyncServer server;
    private McpSyncClient client;
    private ScriptedChatModel model;
    private ChatClient chat;
    private String step;

    @BeforeEach
    void setUp() throws Exception {
        McpJsonMapper json = defaultMapper();
        PipedClientTransport transport = new PipedClientTransport(json);
        McpSchema.Tool tool = McpSchema.Tool.builder().name("refund").description("Refund an invoice")
                .inputSchema(json, SCHEMA).build();
        server = McpServer.sync(new StdioServerTransportProvider(json, transport.serverIn, transport.serverOut))
                .serverInfo("refunds", "1").capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(McpServerFeatures.SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
                    receivedMeta.add(request.meta() == null ? Map.of() : Map.copyOf(request.meta()));
                    return CallToolResult.builder().addTextContent("re_1").isError(false).build();
                }).build()).build();
        client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        model = new ScriptedChatModel(DefaultToolCallingManager.builder().build());
        chat = ChatClient.builder(model).build();
        step = "refund-approved-" + UUID.randomUUID();
    }

    @AfterEach
    void stop() {
        client.closeGracefully();
        server.closeGracefully();
    }

    private ToolCallback refundCallback(boolean idempotentConverter) {
        McpSchema.Tool tool = client.listTools().tools().get(0);
        SyncMcpToolCallback.Builder builder = SyncMcpToolCallback.builder().mcpClient(client).tool(tool);
        if (idempotentConverter) {
            builder.toolContextToMcpMetaConverter(new IdempotentMcpMetaConverter());
        }
        return builder.build();
    }

    private Map<String, Object> context() {
        Map<String, Object> context = Step.asContext(step);
        context.put("tenantToken", "secret-of-the-application");
        return context;
    }

    @Test
    void theStepFromToolContextReachesTheServersMetaAndNothingElseDoes() {
        ToolCallback refund = refundCallback(true);
        model.toolCall("call_1", refund.getToolDefinition().name(), REFUND).says("done");

        String answer = chat.prompt("refund inv_1").toolCallbacks(refund).toolContext(context()).call().content();

        assertThat(answer).isEqualTo("done");
        assertThat(model.toolResults()).singleElement().asString().contains("re_1");
        assertThat(receivedMeta).containsExactly(Map.of(Step.CONTEXT_KEY, step));
    }

    @Test
    void withStreamTheStepReachesTheServersMetaToo() {
        ToolCallback refund = refundCallback(true);
        model.toolCall("call_1", refund.getToolDefinition().name(), REFUND).says("done");

        List<String> answer = chat.prompt("refund inv_1").toolCallbacks(refund).toolContext(context()).stream()
                .content().collectList().block(Duration.ofSeconds(30));

        assertThat(answer).containsExactly("done");
        assertThat(receivedMeta).containsExactly(Map.of(Step.CONTEXT_KEY, step));
    }

    @Test
    void springAisDefaultConverterForwardsTheApplicationsOtherEntriesToo() {
        ToolCallback refund = refundCallback(false);
        model.toolCall("call_1", refund.getToolDefinition().name(), REFUND).says("done");

        chat.prompt("refund inv_1").toolCallbacks(refund).toolContext(context()).call().content();

        assertThat(receivedMeta).singleElement().satisfies(meta -> assertThat(meta)
                .containsEntry(Step.CONTEXT_KEY, step).containsEntry("tenantToken", "secret-of-the-application"));
    }

    /**
     * The SDK's default JSON mapper: MCP SDK 2.x has it on McpJsonDefaults, 0.17 (Spring AI 1.1) on
     * McpJsonMapper itself; the same source runs against both (integrations/spring-ai-1.1-it).
     */
    private static McpJsonMapper defaultMapper() throws ReflectiveOperationException {
        try {
            return (McpJsonMapper) Class.forName("io.modelcontextprotocol.json.McpJsonDefaults")
                    .getMethod("getMapper").invoke(null);
        } catch (ClassNotFoundException sdk017) {
            return (McpJsonMapper) McpJsonMapper.class.getMethod("getDefault").invoke(null);
        }
    }
}
