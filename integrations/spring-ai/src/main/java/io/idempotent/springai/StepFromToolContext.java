package io.idempotent.springai;

import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.KeyParts;
import java.util.Arrays;
import java.util.Objects;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * Opens the workflow's {@link Step} from Spring AI's {@link ToolContext} for tools that declare no
 * {@code ToolContext} parameter, so that their {@code {step}} resolves on whatever thread Spring
 * AI runs them ({@code .stream()} runs tools on Reactor's {@code boundedElastic}).
 *
 * <pre>{@code
 * chatClient.prompt(question)
 *         .toolCallbacks(StepFromToolContext.wrap(ToolCallbacks.from(refundTools)))
 *         .toolContext(Step.asContext(stepKey))
 *         .call();
 * }</pre>
 *
 * <p>A tool that declares a {@code ToolContext} parameter needs none of this: its key reads the
 * {@link Step#CONTEXT_KEY} entry directly.
 */
public final class StepFromToolContext {

    private StepFromToolContext() {
    }

    /** Each callback, run under the step that its call's {@code ToolContext} carries. */
    public static ToolCallback[] wrap(ToolCallback... callbacks) {
        return Arrays.stream(callbacks).map(StepFromToolContext::wrap).toArray(ToolCallback[]::new);
    }

    /** {@code callback}, run under the step that its call's {@code ToolContext} carries. */
    public static ToolCallback wrap(ToolCallback callback) {
        Objects.requireNonNull(callback, "callback");
        return callback instanceof StepScopedCallback ? callback : new StepScopedCallback(callback);
    }

    /**
     * Begins the step that {@code context} carries, for code that calls a tool itself; a scope
     * that does nothing when the context has no step entry. When the thread already has a
     * different step, the call is refused (as a key with {@code {step}} would be).
     *
     * @throws io.idempotent.runtime.MissingOperationKeyException if the context's step and the
     *     thread's differ, or the context's entry is not a valid step key
     */
    public static AutoCloseable open(ToolContext context, String tool) {
        Object entry = context == null || context.getContext() == null ? null
                : context.getContext().get(Step.CONTEXT_KEY);
        if (entry == null) {
            return () -> { };
        }
        return Step.begin(KeyParts.step(tool, "ToolContext", entry));
    }

    /** Runs the delegate under the context's step. */
    private static final class StepScopedCallback implements ToolCallback {

        private final ToolCallback delegate;

        StepScopedCallback(ToolCallback delegate) {
            this.delegate = delegate;
        }

        @Override
        public ToolDefinition getToolDefinition() {
            return delegate.getToolDefinition();
        }

        @Override
        public ToolMetadata getToolMetadata() {
            return delegate.getToolMetadata();
        }

        @Override
        public String call(String toolInput) {
            return delegate.call(toolInput);
        }

        @Override
        public String call(String toolInput, ToolContext toolContext) {
            try (AutoCloseable step = open(toolContext, delegate.getToolDefinition().name())) {
                return delegate.call(toolInput, toolContext);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e); // Step.close declares none; unreachable
            }
        }

        @Override
        public String toString() {
            return "StepFromToolContext[" + delegate + "]";
        }
    }
}
