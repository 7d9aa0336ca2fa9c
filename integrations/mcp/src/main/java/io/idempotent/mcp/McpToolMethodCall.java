package io.idempotent.mcp;

import io.idempotent.runtime.ToolErrorReply;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.function.BiFunction;
import org.springframework.ai.mcp.annotation.context.DefaultMcpSyncRequestContext;
import org.springframework.ai.mcp.annotation.context.McpSyncRequestContext;
import org.springframework.ai.mcp.annotation.method.tool.AbstractSyncMcpToolMethodCallback;
import org.springframework.ai.mcp.annotation.method.tool.ReturnMode;

/**
 * Calls one {@code @McpTool} method with Spring AI's argument binding and result conversion, but
 * lets the runtime's own exceptions through (for {@link IdempotentMcp#wrap} to answer or to fail
 * the call), where Spring AI's callback would turn them into a result with their raw message.
 */
final class McpToolMethodCall extends AbstractSyncMcpToolMethodCallback<McpSyncServerExchange, McpSyncRequestContext>
        implements BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> {

    McpToolMethodCall(ReturnMode returnMode, Method method, Object toolObject) {
        super(returnMode, method, toolObject);
    }

    @Override
    public CallToolResult apply(McpSyncServerExchange exchange, CallToolRequest request) {
        validateSyncRequest(request);
        try {
            return processResult(callMethod(buildMethodArguments(exchange, request.arguments(), request)));
        } catch (UndeclaredThrowableException | McpError e) {
            throw e; // as Spring AI's callback: a checked exception or a protocol error is the server's
        } catch (RuntimeException e) {
            if (ToolErrorReply.idempotencyCause(e).isPresent()) {
                throw e;
            }
            return createSyncErrorResult(e);
        }
    }

    @Override
    protected boolean isExchangeOrContextType(Class<?> type) {
        return McpSyncServerExchange.class.isAssignableFrom(type) || McpSyncRequestContext.class.isAssignableFrom(type)
                || McpTransportContext.class.isAssignableFrom(type);
    }

    @Override
    protected McpSyncRequestContext createRequestContext(McpSyncServerExchange exchange, CallToolRequest request) {
        return DefaultMcpSyncRequestContext.builder().request(request).exchange(exchange).build();
    }

    @Override
    protected McpTransportContext resolveTransportContext(McpSyncServerExchange exchange) {
        return exchange.transportContext();
    }
}
