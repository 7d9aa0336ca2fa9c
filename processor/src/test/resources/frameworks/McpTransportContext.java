package io.modelcontextprotocol.common;

/** The shape of the MCP SDK's McpTransportContext. */
public interface McpTransportContext {
    Object get(String key);
}
