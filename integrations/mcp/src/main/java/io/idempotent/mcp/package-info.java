/**
 * MCP Java SDK integration: {@link io.idempotent.mcp.IdempotentMcp} wraps server tool
 * specifications so that runtime outcomes become {@code isError} results and the step comes from
 * the request's {@code _meta}; {@link io.idempotent.mcp.IdempotentMcpTools} does the same for
 * Spring AI's {@code @McpTool} methods.
 */
package io.idempotent.mcp;
