package io.idempotent.mcp.http;

import io.idempotent.mcp.IdempotentMcp;
import io.idempotent.mcp.RefundTools;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Spring AI MCP server starters' part of docs/mcp-http.md: the wrapped tool specifications as
 * beans, which the starters' auto-configuration registers on the server it builds. Compiled here
 * (McpHttpPageSnippetsTest checks the page's blocks are these lines); the starters themselves are
 * not run by this build. Declare only the beans of the server type you configure
 * ({@code spring.ai.mcp.server.type}, {@code spring.ai.mcp.server.protocol}).
 */
@Configuration
public class RefundMcpServerConfiguration {

    private static final McpSchema.Tool REFUND = McpSchema.Tool.builder().name("refund")
            .description("Refund an invoice, in cents").inputSchema(Map.of("type", "object")).build();

    /** spring.ai.mcp.server.type=SYNC, protocol STREAMABLE (WebMVC or WebFlux starter). */
    @Bean
    McpServerFeatures.SyncToolSpecification refund(RefundTools tools) {
        return IdempotentMcp.wrap(new McpServerFeatures.SyncToolSpecification(REFUND,
                (exchange, request) -> CallToolResult.builder()
                        .addTextContent(tools.issueRefund((String) request.arguments().get("invoiceId"),
                                ((Number) request.arguments().get("amountCents")).longValue()))
                        .build()));
    }

    /** spring.ai.mcp.server.type=ASYNC, protocol STREAMABLE: a Mono tool, claimed on subscription. */
    @Bean
    McpServerFeatures.AsyncToolSpecification refundAsync(RefundTools tools) {
        return IdempotentMcp.wrap(new McpServerFeatures.AsyncToolSpecification(REFUND,
                (exchange, request) -> tools.refundMono((String) request.arguments().get("invoiceId"),
                                ((Number) request.arguments().get("amountCents")).longValue())
                        .map(refundId -> CallToolResult.builder().addTextContent(refundId).build())));
    }

    /** protocol STATELESS (SYNC): no session, each POST answered on its own. */
    @Bean
    McpStatelessServerFeatures.SyncToolSpecification refundStateless(RefundTools tools) {
        return IdempotentMcp.wrap(new McpStatelessServerFeatures.SyncToolSpecification(REFUND,
                (context, request) -> CallToolResult.builder()
                        .addTextContent(tools.issueRefund((String) request.arguments().get("invoiceId"),
                                ((Number) request.arguments().get("amountCents")).longValue()))
                        .build()));
    }
}
