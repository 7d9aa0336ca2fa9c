package io.idempotent.springai;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.mcp.ToolContextToMcpMetaConverter;

/**
 * For Spring AI's MCP client tool callbacks: puts only the {@code ToolContext} entries named
 * {@code io.idempotent/...} (the workflow's step, {@code io.idempotent.runtime.Step#CONTEXT_KEY})
 * into the request's {@code _meta}. Spring AI's default converter copies every entry it can, so
 * whatever else the application keeps in the tool context (a tenant, a user's token) would travel
 * to the MCP server too.
 *
 * <pre>{@code
 * SyncMcpToolCallback.builder().mcpClient(client).tool(tool)
 *         .toolContextToMcpMetaConverter(new IdempotentMcpMetaConverter()).build();
 * }</pre>
 */
public final class IdempotentMcpMetaConverter implements ToolContextToMcpMetaConverter {

    /** The prefix of the entries that are forwarded. */
    public static final String PREFIX = "io.idempotent/";

    /** Creates the converter. */
    public IdempotentMcpMetaConverter() {
    }

    @Override
    public Map<String, Object> convert(ToolContext toolContext) {
        Map<String, Object> meta = new LinkedHashMap<>();
        if (toolContext == null || toolContext.getContext() == null) {
            return meta;
        }
        toolContext.getContext().forEach((name, value) -> {
            if (name != null && name.startsWith(PREFIX) && value != null) {
                meta.put(name, value);
            }
        });
        return meta;
    }
}
