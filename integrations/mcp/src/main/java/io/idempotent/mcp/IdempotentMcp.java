package io.idempotent.mcp;

import io.idempotent.runtime.CallAnswers;
import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.KeyParts;
import io.idempotent.runtime.internal.ListedBindings;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Supplier;
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
 * <li>answers the runtime's retry, review, conflict and approval outcomes, and a call whose key
 *     needs the step but whose request carries none, as a {@code CallToolResult} with
 *     {@code isError = true}: a stable code in {@code structuredContent} ({@code retry_later},
 *     {@code in_review}, {@code conflict}, {@code approval_pending}, {@code approval_denied},
 *     {@code missing_step}) and the fixed text of {@link io.idempotent.runtime.ToolErrorReply},
 *     which the model reads (the MCP spec keeps JSON-RPC errors for protocol errors);</li>
 * <li>adds to each result the runtime answered (sync and async tools) the {@code _meta} entries
 *     {@code io.idempotent/replay} (whether the stored result was replayed) and
 *     {@code io.idempotent/key} (the operation key), never stored data;</li>
 * <li>lists the tool with what its generated binding says ({@link #listing}), when an
 *     {@code @IdempotentTool} of the same name is in the release-gate tables;</li>
 * <li>on a server that several clients share, prefixes that step with the authenticated client a
 *     {@link StepScope} names ({@code wrap(tool, scope)}), so no two clients share an operation;</li>
 * <li>lets configuration errors (a missing binding, a misconfigured store) and every
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
        return wrap(tool, UNSCOPED);
    }

    /**
     * As {@link #wrap(McpServerFeatures.SyncToolSpecification)}, for a server that several clients
     * share: the request's step is prefixed with the client {@code scope} names, so two clients
     * that send the same step never share an operation. The handler sees the scoped step, in its
     * thread's {@link Step} and in the request's {@code _meta}.
     */
    public static McpServerFeatures.SyncToolSpecification wrap(McpServerFeatures.SyncToolSpecification tool,
            StepScope scope) {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(scope, "scope");
        BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler = tool.callHandler();
        return new McpServerFeatures.SyncToolSpecification(listed(tool.tool(), handler), (exchange, request) ->
                call(scoped(request, exchange == null ? null : exchange.transportContext(), scope),
                        scopedRequest -> handler.apply(exchange, scopedRequest)));
    }

    /** A stateless server tool whose handler runs under the request's step and answers outcomes as results. */
    public static McpStatelessServerFeatures.SyncToolSpecification wrap(
            McpStatelessServerFeatures.SyncToolSpecification tool) {
        return wrap(tool, UNSCOPED);
    }

    /** As {@link #wrap(McpStatelessServerFeatures.SyncToolSpecification)}, each client's steps its own. */
    public static McpStatelessServerFeatures.SyncToolSpecification wrap(
            McpStatelessServerFeatures.SyncToolSpecification tool, StepScope scope) {
        Objects.requireNonNull(tool, "tool");
        return new McpStatelessServerFeatures.SyncToolSpecification(listed(tool.tool(), tool.callHandler()),
                wrap(tool.callHandler(), scope));
    }

    /** A stateless handler that runs under the request's step and answers outcomes as results. */
    public static BiFunction<McpTransportContext, CallToolRequest, CallToolResult> wrap(
            BiFunction<McpTransportContext, CallToolRequest, CallToolResult> handler) {
        return wrap(handler, UNSCOPED);
    }

    /**
     * As {@link #wrap(BiFunction)}, each client's steps its own: the step is prefixed with the
     * client that {@code scope} finds in the transport context.
     */
    public static BiFunction<McpTransportContext, CallToolRequest, CallToolResult> wrap(
            BiFunction<McpTransportContext, CallToolRequest, CallToolResult> handler, StepScope scope) {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(scope, "scope");
        return (context, request) -> call(scoped(request, context, scope),
                scopedRequest -> handler.apply(context, scopedRequest));
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
        return wrap(tool, UNSCOPED);
    }

    /** As {@link #wrap(McpServerFeatures.AsyncToolSpecification)}, each client's steps its own. */
    public static McpServerFeatures.AsyncToolSpecification wrap(McpServerFeatures.AsyncToolSpecification tool,
            StepScope scope) {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(scope, "scope");
        BiFunction<McpAsyncServerExchange, CallToolRequest, Mono<CallToolResult>> handler = tool.callHandler();
        return new McpServerFeatures.AsyncToolSpecification(listed(tool.tool(), handler), (exchange, request) ->
                callAsync(step(request) != null, () -> scoped(request,
                        exchange == null ? null : exchange.transportContext(), scope),
                        scopedRequest -> handler.apply(exchange, scopedRequest)));
    }

    /**
     * A stateless async server tool whose handler runs under the request's step and answers
     * outcomes as results, as {@link #wrap(McpServerFeatures.AsyncToolSpecification)} does.
     */
    public static McpStatelessServerFeatures.AsyncToolSpecification wrap(
            McpStatelessServerFeatures.AsyncToolSpecification tool) {
        return wrap(tool, UNSCOPED);
    }

    /** As {@link #wrap(McpStatelessServerFeatures.AsyncToolSpecification)}, each client's steps its own. */
    public static McpStatelessServerFeatures.AsyncToolSpecification wrap(
            McpStatelessServerFeatures.AsyncToolSpecification tool, StepScope scope) {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(scope, "scope");
        BiFunction<McpTransportContext, CallToolRequest, Mono<CallToolResult>> handler = tool.callHandler();
        return new McpStatelessServerFeatures.AsyncToolSpecification(listed(tool.tool(), handler),
                (context, request) -> callAsync(step(request) != null, () -> scoped(request, context, scope),
                        scopedRequest -> handler.apply(context, scopedRequest)));
    }

    /** The step a request carries in its {@code _meta}, for code that calls a tool itself; null when none. */
    public static String step(CallToolRequest request) {
        Map<String, Object> meta = request == null ? null : request.meta();
        Object entry = meta == null ? null : meta.get(Step.CONTEXT_KEY);
        return entry == null ? null : entry.toString();
    }

    /** The scope of a server that one client owns (stdio): the step is the client's as sent. */
    private static final StepScope UNSCOPED = context -> null;

    /** The separator between a scope and the step: never in an encoded scope, so no two pairs meet. */
    private static final char SCOPE_END = '/';

    /**
     * The request with its {@code _meta} step prefixed by the client's scope (unchanged when the
     * server is unscoped or the request carries no step). The scope's own {@code %} and {@code /}
     * are escaped, so client {@code a/b} with step {@code x} and client {@code a} with step
     * {@code b/x} stay two steps.
     *
     * @throws MissingOperationKeyException if the request carries a step and the scope names no client
     */
    private static CallToolRequest scoped(CallToolRequest request, McpTransportContext context, StepScope scope) {
        if (scope == UNSCOPED || request == null || request.meta() == null) {
            return request;
        }
        Object entry = request.meta().get(Step.CONTEXT_KEY);
        if (!(entry instanceof CharSequence step)) {
            return request; // none, or not text: the step check refuses it as for any server
        }
        String client = scope.of(context == null ? McpTransportContext.EMPTY : context);
        if (client == null || client.isBlank()) {
            throw new MissingOperationKeyException(request.name(), "the request carries a step in _meta, but the"
                    + " server's StepScope names no client for it (an unauthenticated request?); it is refused,"
                    + " because an unscoped step would share operations with every other client");
        }
        Map<String, Object> meta = new LinkedHashMap<>(request.meta());
        meta.put(Step.CONTEXT_KEY, client.replace("%", "%25").replace("/", "%2F") + SCOPE_END + step);
        return new CallToolRequest(request.name(), request.arguments(), meta);
    }

    private interface Handler {
        CallToolResult apply(CallToolRequest request);
    }

    private interface AsyncHandler {
        Mono<CallToolResult> apply(CallToolRequest request);
    }

    /** Calls and subscribes the handler under the request's step; runtime outcomes become results. */
    private static Mono<CallToolResult> callAsync(boolean hasStep, Supplier<CallToolRequest> scoping,
            AsyncHandler handler) {
        return Mono.<CallToolResult>create(sink -> {
            CallToolRequest request = scoping.get();
            // A thread-local step must be closed on the thread that set it: it covers the call and
            // the subscription, which is where a Mono.fromCallable body runs.
            // The runtime decides the call on its own thread, which carries this recording.
            try (Step ignored = open(request); CallAnswers.Recording answered = CallAnswers.record()) {
                sink.onDispose(handler.apply(request).contextWrite(sink.contextView())
                        .subscribe(result -> sink.success(McpAnswers.withAnswer(result, answered.first())),
                                failure -> FailureHandOff.error(sink, failure), sink::success));
            }
        }).onErrorResume(e -> McpAnswers.refusal(e, hasStep).map(Mono::just).orElseGet(() -> Mono.error(e)));
    }

    private static CallToolResult call(CallToolRequest request, Handler handler) {
        try (Step ignored = open(request); CallAnswers.Recording answered = CallAnswers.record()) {
            return McpAnswers.withAnswer(handler.apply(request), answered.first());
        } catch (RuntimeException e) {
            return McpAnswers.refusal(e, step(request) != null).orElseThrow(() -> e);
        }
    }

    /** Begins the request's step (null when it carries none: the handler sees the thread's, if any). */
    private static Step open(CallToolRequest request) {
        Object entry = request == null || request.meta() == null ? null : request.meta().get(Step.CONTEXT_KEY);
        return entry == null ? null : Step.begin(KeyParts.step(request.name(), "_meta", entry));
    }

    /**
     * {@code tool}'s definition as the client lists it, with what the release gate verified about
     * the {@code @IdempotentTool} of the same name (found through the release-gate tables on the
     * handler's class loader) merged in; unchanged when no single tool of that name is listed.
     */
    private static McpSchema.Tool listed(McpSchema.Tool tool, Object handler) {
        if (tool == null || tool.name() == null || tool.meta() != null && tool.meta().containsKey(STEP_ENTRY)) {
            return tool; // already listed (IdempotentMcpTools, listing(...)) or the user's own entry
        }
        ClassLoader loader = handler.getClass().getClassLoader();
        return ListedBindings.byName(tool.name(), loader != null ? loader : IdempotentMcp.class.getClassLoader())
                .map(binding -> McpListing.describe(tool, binding.policy())).orElse(tool);
    }

    /**
     * {@code tool}'s definition with the listing of the {@code @IdempotentTool} named
     * {@code idempotentTool} that {@code toolClass} declares: for an MCP tool whose name differs
     * from its idempotent tool's (the wrap methods find the latter by the MCP tool's name). The
     * {@code _meta} entry {@value #STEP_ENTRY} says whether a call must carry the workflow's step
     * there and which repeats are answered without a second effect; the {@code ToolAnnotations}
     * say only what is true by the MCP spec's words ({@code idempotentHint} true only when the key
     * is built from the arguments alone); every value the tool already has is kept.
     *
     * @throws IllegalArgumentException if {@code toolClass} declares no such tool with a generated binding
     */
    public static McpSchema.Tool listing(McpSchema.Tool tool, Class<?> toolClass, String idempotentTool) {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(toolClass, "toolClass");
        Objects.requireNonNull(idempotentTool, "idempotentTool");
        return ListedBindings.byName(toolClass, idempotentTool).map(binding -> McpListing.describe(tool,
                binding.policy())).orElseThrow(() -> new IllegalArgumentException(toolClass.getName()
                        + " declares no @IdempotentTool named " + idempotentTool + " with a generated binding"));
    }

    /** The {@code _meta} entry of a request's step, and of a listing's description of it. */
    public static final String STEP_ENTRY = Step.CONTEXT_KEY;
}
