package io.idempotent.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import dev.langchain4j.service.tool.ToolErrorContext;
import dev.langchain4j.service.tool.ToolExecutionErrorHandler;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import java.lang.reflect.Method;
import java.util.Objects;

/**
 * A {@link ToolExecutor} for one tool method, to use where an application builds executors by
 * hand instead of {@code new DefaultToolExecutor(tool, method)}.
 *
 * <pre>{@code
 * Map<ToolSpecification, ToolExecutor> tools = Map.of(ToolSpecifications.toolSpecificationFrom(method),
 *         StepFromInvocationParameters.wrap(IdempotentToolExecutor.of(refundTools, method)));
 * }</pre>
 *
 * <p>Why: a {@code DefaultToolExecutor} built that way catches what the tool throws and returns its
 * message as the tool result, so no {@link ToolExecutionErrorHandler} ever sees it (not even
 * {@link IdempotentToolErrorHandler} installed on {@code AiServices}), and the model reads the
 * runtime's whole message: the operation key and the operator's instructions. This executor
 * lets LangChain4j's executor throw and answers through {@link IdempotentToolErrorHandler}: the
 * runtime's outcomes become the model's short refusal, a configuration error is thrown, and any
 * other failure's message is the result, as {@code DefaultToolExecutor} returns it.
 */
public final class IdempotentToolExecutor implements ToolExecutor {

    private final ToolExecutor tool;
    private final ToolExecutionErrorHandler handler = new IdempotentToolErrorHandler();

    private IdempotentToolExecutor(ToolExecutor tool) {
        this.tool = tool;
    }

    /** {@return an executor that calls {@code method} on {@code tool}, failures answered as the class says} */
    public static ToolExecutor of(Object tool, Method method) {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(method, "method");
        return new IdempotentToolExecutor(DefaultToolExecutor.builder().object(tool).originalMethod(method)
                .methodToInvoke(method).propagateToolExecutionExceptions(true).build());
    }

    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
        return executeWithContext(request, InvocationContext.builder().chatMemoryId(memoryId).build()).resultText();
    }

    /**
     * {@inheritDoc}
     *
     * @throws io.idempotent.runtime.IdempotencyException a configuration error of the runtime
     */
    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
        try {
            return tool.executeWithContext(request, context);
        } catch (ToolExecutionException e) {
            // LangChain4j's wrapper around what the tool method threw; the handler reads the cause.
            Throwable thrown = e.getCause() == null ? e : e.getCause();
            String text = handler.handle(thrown, ToolErrorContext.builder().toolExecutionRequest(request)
                    .invocationContext(context).build()).text();
            return ToolExecutionResult.builder().isError(true).resultText(text).build();
        }
    }
}
