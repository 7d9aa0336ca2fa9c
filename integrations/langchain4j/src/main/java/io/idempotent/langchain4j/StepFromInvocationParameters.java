package io.idempotent.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.KeyParts;
import java.util.Objects;

/**
 * Opens the workflow's {@link Step} from LangChain4j's {@link InvocationParameters} for tools
 * that declare no {@code InvocationParameters} parameter, so that their {@code {step}} resolves on
 * whatever thread LangChain4j runs them ({@code executeToolsConcurrently()} runs them on an
 * executor, a streaming model on its callback thread).
 *
 * <pre>{@code
 * assistant.chat("refund inv_1", InvocationParameters.from(Step.asContext(stepKey)));
 * }</pre>
 *
 * <p>A tool that declares an {@code InvocationParameters} or {@code InvocationContext} parameter
 * needs none of this: its key reads the {@link Step#CONTEXT_KEY} entry directly.
 */
public final class StepFromInvocationParameters {

    private StepFromInvocationParameters() {
    }

    /**
     * Begins the step that {@code parameters} carry; a scope that does nothing when they carry
     * none. When the thread already has a different step, the call is refused (as a key with
     * {@code {step}} would be).
     *
     * @throws io.idempotent.runtime.MissingOperationKeyException if the two steps differ, or the
     *     entry is not a valid step key
     */
    public static AutoCloseable open(InvocationParameters parameters, String tool) {
        Object entry = parameters == null || parameters.asMap() == null ? null
                : parameters.asMap().get(Step.CONTEXT_KEY);
        if (entry == null) {
            return () -> { };
        }
        return Step.begin(KeyParts.step(tool, "InvocationParameters", entry));
    }

    /** {@code executor}, run under the step that each call's {@code InvocationParameters} carry. */
    public static ToolExecutor wrap(ToolExecutor executor) {
        Objects.requireNonNull(executor, "executor");
        return new ToolExecutor() {
            @Override
            public String execute(ToolExecutionRequest request, Object memoryId) {
                return executor.execute(request, memoryId);
            }

            @Override
            public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
                try (AutoCloseable step = open(context == null ? null : context.invocationParameters(),
                        request.name())) {
                    return executor.executeWithContext(request, context);
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e); // Step.close declares none; unreachable
                }
            }
        };
    }
}
