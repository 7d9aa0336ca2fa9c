package io.idempotent.mcp.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.mcp.IdempotentMcp;
import io.idempotent.mcp.PaymentProvider;
import io.idempotent.mcp.RefundTools;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import jakarta.servlet.http.HttpServlet;
import java.nio.file.Path;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The Streamable HTTP server of docs/mcp-http.md: a sync MCP server on the SDK's servlet transport
 * in an embedded Tomcat, its refund tool wrapped by {@link IdempotentMcp}. The page's code blocks
 * are this file's lines (McpHttpPageSnippetsTest checks it), so the page compiles.
 */
public final class RefundHttpServer implements AutoCloseable {

    /** Which server: the page's, or a variant the tests compare it with. */
    public enum Kind {
        /** The page's: Streamable HTTP, the sync tool run on the request's thread. */
        PAGE,
        /** Streamable HTTP with the SDK's default: the sync tool run on Reactor's boundedElastic threads. */
        SDK_DEFAULT_SCHEDULING,
        /** The stateless servlet transport (no session; each POST answered with plain JSON). */
        STATELESS,
        /**
         * An async server whose tool moves its work to Reactor's boundedElastic threads
         * ({@code subscribeOn}), reading its step from its {@code CallToolRequest} parameter.
         */
        ASYNC_ELSEWHERE
    }

    private final Runnable closeServer;
    private final Tomcat tomcat;

    /** Starts the server of the page on a free loopback port; {@link #url()} tells where. */
    public RefundHttpServer(PaymentProvider provider, Path baseDir) throws Exception {
        this(provider, baseDir, Kind.PAGE);
    }

    /** As {@link #RefundHttpServer(PaymentProvider, Path)}, of the given kind. */
    public RefundHttpServer(PaymentProvider provider, Path baseDir, Kind kind) throws Exception {
        McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
        RefundTools tools = new RefundTools(provider);
        McpSchema.Tool refundTool = McpSchema.Tool.builder().name("refund").description("Refund an invoice")
                .inputSchema(json, "{\"type\":\"object\",\"properties\":{\"invoiceId\":{\"type\":\"string\"},"
                        + "\"amountCents\":{\"type\":\"integer\"}}}").build();

        // the tool: a plain handler calling the @IdempotentTool method
        McpServerFeatures.SyncToolSpecification refund = new McpServerFeatures.SyncToolSpecification(refundTool,
                (exchange, request) -> {
                    Map<String, Object> args = request.arguments();
                    String refundId = tools.issueRefund((String) args.get("invoiceId"),
                            ((Number) args.get("amountCents")).longValue());
                    return CallToolResult.builder().addTextContent(refundId).isError(false).build();
                });

        // the SDK's Streamable HTTP transport is a servlet; the wrapped tool reads the step from _meta
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider
                .builder().jsonMapper(json).mcpEndpoint("/mcp").build();
        HttpServlet servlet = transport;
        if (kind == Kind.PAGE) {
            McpSyncServer mcp = refundServer(transport, refund);
            this.closeServer = mcp::closeGracefully;
        } else if (kind == Kind.SDK_DEFAULT_SCHEDULING) {
            McpSyncServer mcp = sdkDefaultScheduling(transport, refund);
            this.closeServer = mcp::closeGracefully;
        } else if (kind == Kind.ASYNC_ELSEWHERE) {
            McpAsyncServer mcp = McpServer.async(transport).serverInfo("refunds", "1")
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                    .tools(IdempotentMcp.wrap(new McpServerFeatures.AsyncToolSpecification(refundTool,
                            (exchange, request) -> Mono.fromCallable(() -> tools.issueRefund(
                                    (String) request.arguments().get("invoiceId"),
                                    ((Number) request.arguments().get("amountCents")).longValue(), request))
                                    .subscribeOn(Schedulers.boundedElastic())
                                    .map(refundId -> CallToolResult.builder().addTextContent(refundId).build()))))
                    .build();
            this.closeServer = () -> mcp.closeGracefully().block();
        } else {
            HttpServletStatelessServerTransport stateless = HttpServletStatelessServerTransport.builder()
                    .jsonMapper(json).messageEndpoint("/mcp").build();
            McpStatelessSyncServer mcp = McpServer.sync(stateless).serverInfo("refunds", "1")
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                    .tools(IdempotentMcp.wrap(new McpStatelessServerFeatures.SyncToolSpecification(refundTool,
                            (context, request) -> refund.callHandler().apply(null, request))))
                    .build();
            this.closeServer = mcp::closeGracefully;
            servlet = stateless;
        }

        this.tomcat = serve(servlet, baseDir);
    }

    /** Serves the transport in an embedded Tomcat on a free loopback port. */
    private static Tomcat serve(HttpServlet transport, Path baseDir) throws Exception {
        // any servlet container: the servlet must support async requests (its answers are SSE streams)
        Tomcat container = new Tomcat();
        container.setBaseDir(baseDir.toString());
        container.setHostname("127.0.0.1");
        container.setPort(0);
        Context context = container.addContext("", baseDir.toString());
        Tomcat.addServlet(context, "mcp", transport).setAsyncSupported(true);
        context.addServletMappingDecoded("/*", "mcp");
        container.getConnector();
        container.start();

        return container;
    }

    /** The MCP server of the page: the wrapped tool, run on the thread of its HTTP request. */
    static McpSyncServer refundServer(HttpServletStreamableServerTransportProvider transport,
            McpServerFeatures.SyncToolSpecification refund) {
        return McpServer.sync(transport).serverInfo("refunds", "1")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .immediateExecution(true) // the servlet thread waits for the answer anyway
                .tools(IdempotentMcp.wrap(refund))
                .build();
    }

    /** The same server with the SDK's default: the tool runs on one of Reactor's boundedElastic threads. */
    private static McpSyncServer sdkDefaultScheduling(HttpServletStreamableServerTransportProvider transport,
            McpServerFeatures.SyncToolSpecification refund) {
        return McpServer.sync(transport).serverInfo("refunds", "1")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(IdempotentMcp.wrap(refund))
                .build();
    }

    /** The server's base URL; its MCP endpoint is {@code /mcp}. */
    public String url() {
        return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort();
    }

    @Override
    public void close() throws Exception {
        closeServer.run();
        tomcat.stop();
        tomcat.destroy();
    }
}
