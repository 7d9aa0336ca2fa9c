package io.idempotent.langchain4j;

import dev.langchain4j.service.tool.ToolErrorContext;
import dev.langchain4j.service.tool.ToolErrorHandlerResult;
import dev.langchain4j.service.tool.ToolExecutionErrorHandler;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.ToolErrorReply;
import java.util.Objects;
import java.util.Optional;

/**
 * A LangChain4j {@link ToolExecutionErrorHandler} that answers the model in a few fixed words when
 * a tool call ended in one of the runtime's outcomes the model can act on (see
 * {@link ToolErrorReply}), instead of the raw exception message. Install it explicitly:
 *
 * <pre>{@code
 * AiServices.builder(Assistant.class)
 *         .chatModel(model)
 *         .tools(refundTools)
 *         .toolExecutionErrorHandler(new IdempotentToolErrorHandler())
 *         .build();
 * }</pre>
 *
 * LangChain4j plans to change its default handler to throwing, which would end the chat on a
 * replayable "in progress". The runtime's other exceptions (a missing step or binding, a
 * misconfigured store) are not the model's to fix: they are thrown, so {@code chat()} fails.
 * Every other failure goes to the delegate.
 */
public final class IdempotentToolErrorHandler implements ToolExecutionErrorHandler {

    private final ToolExecutionErrorHandler delegate;

    /**
     * Hands failures that are not the runtime's to the model as their message, which is what
     * LangChain4j 1.x does without a handler.
     */
    public IdempotentToolErrorHandler() {
        this((error, context) -> ToolErrorHandlerResult.text(String.valueOf(error.getMessage())));
    }

    /** Hands failures that are not the runtime's to {@code delegate}. */
    public IdempotentToolErrorHandler(ToolExecutionErrorHandler delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * {@return the curated tool result for the runtime's retry, review, conflict and approval outcomes, or
     * what the delegate answers for other failures}
     *
     * @throws IdempotencyException a configuration error of the runtime, which fails the turn
     */
    @Override
    public ToolErrorHandlerResult handle(Throwable error, ToolErrorContext context) {
        Optional<ToolErrorReply> reply = ToolErrorReply.forModel(error);
        if (reply.isPresent()) {
            return ToolErrorHandlerResult.text(reply.get().text());
        }
        Optional<IdempotencyException> configuration = ToolErrorReply.idempotencyCause(error);
        if (configuration.isPresent()) {
            throw configuration.get();
        }
        return delegate.handle(error, context);
    }
}
