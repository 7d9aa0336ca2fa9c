package io.modelcontextprotocol.spec;

import java.util.Map;

/** The shape of the MCP SDK's CallToolRequest that the processor relies on. */
public final class McpSchema {
    private McpSchema() {
    }

    public record CallToolRequest(String name, Map<String, Object> arguments, Map<String, Object> meta) {
    }
}
