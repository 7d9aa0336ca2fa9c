package io.idempotent.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.runtime.testing.AttachedAgent;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import jakarta.servlet.http.HttpServlet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The MCP integration tests' one set-up of servers and clients: a real MCP server over an
 * in-process stdio pipe ({@link PipedMcpClient}) or a transport served by an embedded Tomcat, the
 * SDK's own clients over streamable HTTP, and everything a test opened closed after it, the last
 * opened first (the servlet containers last of all). Before a class's tests it attaches the
 * agent ({@link AttachedAgent}, once per JVM). Register one per test class:
 * {@code @RegisterExtension static final McpFixture MCP = new McpFixture();}.
 */
public final class McpFixture implements BeforeAllCallback, AfterEachCallback {

    /** How long a test waits for an answer, a client's start or a server's close. */
    public static final Duration WAIT = Duration.ofSeconds(30);
    /** The SDK's JSON mapper over a plain Jackson mapper. */
    public static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());
    /** The refund tools' input schema: an invoice id and an amount in cents. */
    public static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"invoiceId\":{\"type\":\"string\"},"
            + "\"amountCents\":{\"type\":\"integer\"}}}";

    private final List<AutoCloseable> open = new ArrayList<>();
    /** The servlet containers, stopped after everything else (their servers and clients first). */
    private final List<AutoCloseable> containers = new ArrayList<>();

    /** Closes {@code resource} after the test, before what was opened earlier. */
    public void closeAfter(AutoCloseable resource) {
        open.add(resource);
    }

    /** Closes {@code resource} now, which {@link #closeAfter} was given: it is not closed again. */
    public void closeNow(AutoCloseable resource) throws Exception {
        open.remove(resource);
        resource.close();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        AttachedAgent.attach();
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        for (List<AutoCloseable> resources : List.of(open, containers)) {
            for (int i = resources.size() - 1; i >= 0; i--) {
                resources.remove(i).close();
            }
        }
    }

    /** The tool {@code name} with the refund schema. */
    public static McpSchema.Tool refundTool(String name) {
        return McpSchema.Tool.builder().name(name).description("Refund an invoice").inputSchema(JSON, SCHEMA).build();
    }

    /** The text of a result's first content. */
    public static String text(CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    /**
     * A sync server named {@code name} with {@code tools} over a new in-process stdio pipe, and
     * its client, initialised.
     */
    PipedMcpClient syncServer(String name, List<McpServerFeatures.SyncToolSpecification> tools) throws Exception {
        PipedMcpClient client = pipe();
        McpSyncServer server = McpServer.sync(stdio(client)).serverInfo(name, "1").capabilities(toolsOnly())
                .tools(tools).build();
        closeAfter(server::closeGracefully);
        client.initialize();
        return client;
    }

    /** An async server with {@code tool} over a new in-process stdio pipe, and its client, initialised. */
    PipedMcpClient asyncServer(McpServerFeatures.AsyncToolSpecification tool) throws Exception {
        PipedMcpClient client = pipe();
        McpAsyncServer server = McpServer.async(stdio(client)).serverInfo("refunds", "1").capabilities(toolsOnly())
                .tools(tool).build();
        closeAfter(() -> server.closeGracefully().block(WAIT));
        client.initialize();
        return client;
    }

    /** What the servers say they offer: tools, whose list does not change. */
    public static McpSchema.ServerCapabilities toolsOnly() {
        return McpSchema.ServerCapabilities.builder().tools(false).build();
    }

    /** Serves the transport {@code servlet} at the root of an embedded Tomcat (base directory {@code dir}) and returns its URL. */
    public String serve(HttpServlet servlet, Path dir) throws Exception {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(dir.toString());
        tomcat.setPort(0);
        Context context = tomcat.addContext("", dir.toString());
        Tomcat.addServlet(context, "mcp", servlet).setAsyncSupported(true);
        context.addServletMappingDecoded("/*", "mcp");
        tomcat.getConnector();
        containers.add(() -> {
            tomcat.stop();
            tomcat.destroy();
        });
        tomcat.start();
        return "http://localhost:" + tomcat.getConnector().getLocalPort();
    }

    /** The SDK's sync client over streamable HTTP to {@code url}'s {@code /mcp}, initialised. */
    public McpSyncClient syncClient(String url) {
        McpSyncClient client = McpClient.sync(http(url)).requestTimeout(WAIT).build();
        closeAfter(client::closeGracefully);
        client.initialize();
        return client;
    }

    /** The SDK's async client over streamable HTTP to {@code url}'s {@code /mcp}, initialised. */
    public McpAsyncClient asyncClient(String url) {
        McpAsyncClient client = McpClient.async(http(url)).requestTimeout(WAIT).build();
        closeAfter(() -> client.closeGracefully().block(WAIT));
        client.initialize().block(WAIT);
        return client;
    }

    private static HttpClientStreamableHttpTransport http(String url) {
        return HttpClientStreamableHttpTransport.builder(url).endpoint("/mcp").jsonMapper(JSON).build();
    }

    private PipedMcpClient pipe() throws Exception {
        PipedMcpClient client = new PipedMcpClient();
        closeAfter(client);
        return client;
    }

    private static StdioServerTransportProvider stdio(PipedMcpClient client) {
        return new StdioServerTransportProvider(JSON, client.serverIn, client.serverOut);
    }
}
