package io.idempotent.mcp;

import io.modelcontextprotocol.common.McpTransportContext;

/**
 * Where a multi-tenant MCP server's steps belong. On such a server the step arrives in the
 * request's {@code _meta}, written by the client: two clients that send the same step text (a
 * counter, a run id they both derive) would otherwise share one operation, and the second would be
 * answered with the first one's stored result. A scope names the authenticated client (or tenant)
 * of each request; {@link IdempotentMcp#wrap(io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification,
 * StepScope) IdempotentMcp.wrap(tool, scope)} prefixes the request's step with it, so each client's
 * steps are its own, and a client's retry still finds its own operation.
 *
 * <p>The scope must come from what the server authenticated (a token's subject or client id that
 * the transport's context extractor put into the {@link McpTransportContext}), never from the
 * request itself: {@code _meta}, the arguments and the client's declared name are all the
 * client's to choose.
 *
 * <pre>{@code
 * // the HTTP transport's context extractor puts the verified client id under "client_id"
 * McpServer.sync(transport).tools(IdempotentMcp.wrap(refund, StepScope.fromContext("client_id"))).build();
 * }</pre>
 */
@FunctionalInterface
public interface StepScope {

    /**
     * The client (or tenant) the request comes from, as the server authenticated it; null or
     * blank when it has none, and then a request that carries a step is refused (a
     * {@link io.idempotent.runtime.MissingOperationKeyException}, which reaches the client as a
     * JSON-RPC error): without a client, its steps would be everyone's.
     */
    String of(McpTransportContext context);

    /** The scope held in entry {@code key} of the transport context (its text), or none when absent. */
    static StepScope fromContext(String key) {
        java.util.Objects.requireNonNull(key, "key");
        return context -> {
            Object value = context == null ? null : context.get(key);
            return value == null ? null : value.toString();
        };
    }
}
