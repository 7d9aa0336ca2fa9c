package io.idempotent.agent;

import io.idempotent.runtime.agent.ReplayedCall;
import io.idempotent.runtime.agent.ToolCall;
import io.idempotent.runtime.agent.ToolDispatcher;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Inlined around every {@code @IdempotentTool} method. Stateless: each advice is one call into the
 * runtime's dispatcher. If {@code enter} throws (store down, no binding, bad key ...) the exception
 * reaches the caller and the body never runs; a replay skips the body; {@code exit} stores or
 * classifies the outcome and returns the result (or rethrows the body's exception unchanged).
 */
final class ToolAdvice {

    private ToolAdvice() {
    }

    @Advice.OnMethodEnter(skipOn = ReplayedCall.class)
    static ToolCall enter(@Advice.Origin Class<?> type, @Advice.Origin("#m#d") String method,
            @Advice.AllArguments Object[] args) {
        return ToolDispatcher.enter(type, method, args);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Advice.Enter ToolCall call,
            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned,
            @Advice.Thrown Throwable thrown) throws Throwable {
        returned = call.exit(returned, thrown);
    }
}
