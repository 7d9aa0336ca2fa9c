package io.idempotent.mcp;

import io.idempotent.runtime.Step;
import io.idempotent.runtime.ToolErrorReply;
import io.idempotent.runtime.binding.KeyParts;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import reactor.core.publisher.Mono;

/**
 * Makes MCP server tools speak the runtime's outcomes the MCP way. Without it, a tool handler's
 * exception becomes a JSON-RPC internal error ({@code -32603}), which clients such as Spring AI's
 * rethrow, ending the chat. Each {@code wrap} takes a tool specification (or handler) and returns
 * one that
 * <ul>
 * <li>runs the handler under the workflow's {@link Step} carried in the request's {@code _meta}
 *     entry {@link Step#CONTEXT_KEY} (the client's workflow runs in another process, so no
 *     thread-local could reach the server);</li>
 * <li>answers the runtime's retry, review and conflict outcomes as a {@code CallToolResult} with
 *     {@code isError = true} and the fixed text of {@link ToolErrorReply}, which the model reads;</li>
 * <li>lets configuration errors (a missing step or binding, a misconfigured store) and every
 *     other failure through, unchanged: they are not the model's to fix.</li>
 * </ul>
 *
 * <pre>{@code
 * McpServer.sync(transport).tools(IdempotentMcp.wrap(refundSpecification)).build();
 * }</pre>
 */
public final class IdempotentMcp {

    private IdempotentMcp() {
    }

    /** A sync server tool whose handler runs under the request's step and answers outcomes as results. */
    public static McpServerFeatures.SyncToolSpecification wrap(McpServerFeatures.SyncToolSpecification tool) {
        Objects.requireNonNull(tool, "tool");
        BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler = tool.callHandler();
        return new McpServerFeatures.SyncToolSpecification(tool.tool(), (exchange, request) ->
                call(request, () -> handler.apply(exchange, request)));
    }

    /** A stateless server tool whose handler runs under the request's step and answers outcomes as results. */
    public static McpStatelessServerFeatures.SyncToolSpecification wrap(
            McpStatelessServerFeatures.SyncToolSpecification tool) {
        Objects.requireNonNull(tool, "tool");
        return new McpStatelessServerFeatures.SyncToolSpecification(tool.tool(), wrap(tool.callHandler()));
    }

    /** A stateless handler that runs under the request's step and answers outcomes as results. */
    public static BiFunction<McpTransportContext, CallToolRequest, CallToolResult> wrap(
            BiFunction<McpTransportContext, CallToolRequest, CallToolResult> handler) {
        Objects.requireNonNull(handler, "handler");
        return (context, request) -> call(request, () -> handler.apply(context, request));
    }

    /**
     * An async server tool whose handler runs under the request's step and answers outcomes as
     * results. The step is set while the handler is called and while its {@code Mono} is
     * subscribed, so work that runs on subscription ({@code Mono.fromCallable(...)}, the usual
     * shape) sees it. Work the {@code Mono} moves to another thread ({@code subscribeOn},
     * {@code publishOn}) runs where no thread-local step exists: such a tool reads the step from a
     * {@code CallToolRequest} parameter of its {@code @IdempotentTool} method instead.
     */
    public static McpServerFeatures.AsyncToolSpecification wrap(McpServerFeatures.AsyncToolSpecification tool) {
        Objects.requireNonNull(tool, "tool");
        BiFunction<McpAsyncServerExchange, CallToolRequest, Mono<CallToolResult>> handler = tool.callHandler();
        return new McpServerFeatures.AsyncToolSpecification(tool.tool(), (exchange, request) ->
                callAsync(request, () -> handler.apply(exchange, request)));
    }

    /**
     * A stateless async server tool whose handler runs under the request's step and answers
     * outcomes as results, as {@link #wrap(McpServerFeatures.AsyncToolSpecification)} does.
     */
    public static McpStatelessServerFeatures.AsyncToolSpecification wrap(
            McpStatelessServerFeatures.AsyncToolSpecification tool) {
        Objects.requireNonNull(tool, "tool");
        BiFunction<McpTransportContext, CallToolRequest, Mono<CallToolResult>> handler = tool.callHandler();
        return new McpStatelessServerFeatures.AsyncToolSpecification(tool.tool(), (context, request) ->
                callAsync(request, () -> handler.apply(context, request)));
    }

    /** The step a request carries in its {@code _meta}, for code that calls a tool itself; null when none. */
    public static String step(CallToolRequest request) {
        Map<String, Object> meta = request == null ? null : request.meta();
        Object entry = meta == null ? null : meta.get(Step.CONTEXT_KEY);
        return entry == null ? null : entry.toString();
    }

    private interface Handler {
        CallToolResult apply();
    }

    private interface AsyncHandler {
        Mono<CallToolResult> apply();
    }

    /** Calls and subscribes the handler under the request's step; runtime outcomes become results. */
    private static Mono<CallToolResult> callAsync(CallToolRequest request, AsyncHandler handler) {
        return Mono.<CallToolResult>create(sink -> {
            // A thread-local step must be closed on the thread that set it: it covers the call and
            // the subscription, which is where a Mono.fromCallable body runs.
            try (Step ignored = open(request)) {
                sink.onDispose(handler.apply().contextWrite(sink.contextView())
                        .subscribe(sink::success, sink::error, sink::success));
            }
        }).onErrorResume(e -> reply(e).map(Mono::just).orElseGet(() -> Mono.error(e)));
    }

    private static CallToolResult call(CallToolRequest request, Handler handler) {
        try (Step ignored = open(request)) {
            return handler.apply();
        } catch (RuntimeException e) {
            return reply(e).orElseThrow(() -> e);
        }
    }

    /** Begins the request's step (null when it carries none: the handler sees the thread's, if any). */
    private static Step open(CallToolRequest request) {
        Object entry = request == null || request.meta() == null ? null : request.meta().get(Step.CONTEXT_KEY);
        return entry == null ? null : Step.begin(KeyParts.step(request.name(), "_meta", entry));
    }

    private static Optional<CallToolResult> reply(Throwable e) {
        Optional<ToolErrorReply> reply = ToolErrorReply.forModel(e);
        if (reply.isEmpty()) {
            return Optional.empty(); // configuration errors and foreign failures pass unchanged
        }
        return Optional.of(CallToolResult.builder().addTextContent(reply.get().text()).isError(true).build());
    }
}
