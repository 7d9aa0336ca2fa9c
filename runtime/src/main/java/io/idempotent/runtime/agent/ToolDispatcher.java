package io.idempotent.runtime.agent;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.internal.BindingRegistry;
import io.idempotent.runtime.internal.Invocation;
import io.idempotent.runtime.internal.RuntimeAccess;

/**
 * The one entry point of the agent's inlined advice. Not for application code.
 *
 * <p>{@link #enter} claims the operation key and either returns a {@link ReplayedCall} (the
 * advice skips the body) or a call whose {@link ToolCall#exit exit} stores or classifies the
 * body's outcome. When the call must not run, {@code enter} throws, so the body never runs
 * outside the protocol (fail closed).
 *
 * <p>A method returning {@code CompletionStage}, {@code CompletableFuture} or Reactor's
 * {@code Mono} is answered with an {@link AnsweredCall} on the caller's thread (nothing claimed
 * there): the method returns the runtime's stage or Mono, which claims on the runtime's executor and
 * then runs the body by invoking the method again ({@link AsyncTools}).
 */
public final class ToolDispatcher {

    private ToolDispatcher() {
    }

    /**
     * Claims the call of {@code methodDescriptor} on {@code toolClass} with {@code args}.
     *
     * @param toolClass the class that declares the instrumented method
     * @param methodDescriptor the method's name followed by its JVM descriptor
     * @param args the call's arguments
     * @return never null
     * @throws io.idempotent.runtime.IdempotencyException when the body must not run
     */
    public static ToolCall enter(Class<?> toolClass, String methodDescriptor, Object[] args) {
        return enter(toolClass, methodDescriptor, null, args);
    }

    /**
     * Claims the call of {@code methodDescriptor} on {@code self}, or answers an asynchronous tool's
     * call with the runtime's stage or Mono.
     *
     * @param self the instance the method was called on, null for a static method
     * @return never null; an {@link AnsweredCall} when the body must be skipped
     * @throws io.idempotent.runtime.IdempotencyException when the body must not run
     */
    public static ToolCall enter(Class<?> toolClass, String methodDescriptor, Object self, Object[] args) {
        if (AsyncTools.isAsync(methodDescriptor)) {
            if (Reentry.take(toolClass, methodDescriptor)) {
                return ReenteredCall.INSTANCE;
            }
            return AsyncTools.call(BindingRegistry.find(toolClass, methodDescriptor), toolClass, methodDescriptor,
                    self, args);
        }
        ToolBinding binding = BindingRegistry.find(toolClass, methodDescriptor);
        Invocation invocation = RuntimeAccess.engine(IdempotentRuntime.global()).begin(binding.policy(),
                binding.key(args), binding.payload(args), binding.resultType(), toolClass);
        if (invocation instanceof Invocation.Replay replay) {
            return new ReplayedCall(replay.result());
        }
        return new ExecutingCall((Invocation.Execution) invocation);
    }

    /** The call that owns the key and runs the body. */
    private static final class ExecutingCall extends ToolCall {

        private final Invocation.Execution execution;

        ExecutingCall(Invocation.Execution execution) {
            this.execution = execution;
        }

        @Override
        public Object exit(Object returned, Throwable thrown) throws Throwable {
            if (thrown != null) {
                execution.failed(thrown);
                throw thrown;
            }
            return execution.succeeded(returned);
        }
    }
}
