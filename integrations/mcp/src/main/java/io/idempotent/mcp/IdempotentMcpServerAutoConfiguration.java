package io.idempotent.mcp;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * For Spring AI's MCP server starters: the tools their auto-configuration builds from
 * {@code @McpTool} beans and {@code ToolCallback}s are wrapped with {@link IdempotentMcp#wrap}, so
 * {@code tools/list} carries the {@code _meta["io.idempotent/step"]} entry and the verified
 * {@code ToolAnnotations} (a user's own values kept), and calls read the step from {@code _meta}
 * and answer refusals with their codes. An application that wraps its specifications itself (with
 * a {@link StepScope}, say) excludes it ({@code spring.autoconfigure.exclude}); not with an
 * {@code idempotent.*} property, a prefix the runtime keeps for its own settings and checks.
 */
@AutoConfiguration(beforeName = "org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration")
@ConditionalOnClass(name = {"io.modelcontextprotocol.server.McpServerFeatures",
        "org.springframework.ai.mcp.annotation.McpTool"})
public class IdempotentMcpServerAutoConfiguration {

    /** Used by Spring. */
    public IdempotentMcpServerAutoConfiguration() {
    }

    /**
     * The post-processor that wraps the server's tool specifications. Static, so that it is
     * created before the beans it processes.
     */
    @Bean
    public static BeanPostProcessor idempotentMcpServerToolSpecifications() {
        return new McpServerToolSpecifications();
    }
}
