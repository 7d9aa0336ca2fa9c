/**
 * MCP Java SDK integration: {@link io.idempotent.mcp.IdempotentMcp} wraps server tool
 * specifications so that runtime outcomes become {@code isError} results and the step comes from
 * the request's {@code _meta}.
 */
package io.idempotent.mcp;
