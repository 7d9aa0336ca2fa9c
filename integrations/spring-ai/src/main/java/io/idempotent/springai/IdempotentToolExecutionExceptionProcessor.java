package io.idempotent.springai;

import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.ToolErrorReply;
import java.util.Objects;
import java.util.Optional;
import org.springframework.ai.tool.execution.DefaultToolExecutionExceptionProcessor;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.execution.ToolExecutionExceptionProcessor;

/**
 * A {@link ToolExecutionExceptionProcessor} that answers the model in a few fixed words when a
 * tool call ended in one of the runtime's outcomes the model can act on (call again later; stop
 * and tell the user; do not change the arguments; wait for a person's approval; give up a denied
 * decision), see {@link ToolErrorReply}. Spring AI's own
 * default would hand the model the raw exception message.
 *
 * <p>The runtime's other exceptions (a missing step or binding, a misconfigured store) are not the
 * model's to fix: they are thrown, so the chat call fails. Every other failure goes to the
 * delegate, by default Spring AI's {@link DefaultToolExecutionExceptionProcessor}.
 *
 * <p>The Boot auto-configuration registers one unless the application defines its own
 * {@code ToolExecutionExceptionProcessor}; to keep yours, wrap it:
 * {@code new IdempotentToolExecutionExceptionProcessor(yours)}.
 */
public final class IdempotentToolExecutionExceptionProcessor implements ToolExecutionExceptionProcessor {

    private final ToolExecutionExceptionProcessor delegate;

    /** Delegates foreign failures to Spring AI's default, which tells the model their message. */
    public IdempotentToolExecutionExceptionProcessor() {
        this(new DefaultToolExecutionExceptionProcessor(false));
    }

    /** Delegates every failure that is not the runtime's to {@code delegate}. */
    public IdempotentToolExecutionExceptionProcessor(ToolExecutionExceptionProcessor delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * {@return the curated tool result for the runtime's retry, review, conflict and approval outcomes, or
     * what the delegate answers for failures that are not the runtime's}
     *
     * @throws IdempotencyException a configuration error of the runtime, which fails the turn
     */
    @Override
    public String process(ToolExecutionException exception) {
        Optional<ToolErrorReply> reply = ToolErrorReply.forModel(exception);
        if (reply.isPresent()) {
            return reply.get().text();
        }
        Optional<IdempotencyException> configuration = ToolErrorReply.idempotencyCause(exception);
        if (configuration.isPresent()) {
            throw configuration.get();
        }
        return delegate.process(exception);
    }
}
