package io.idempotent.agent;

import io.idempotent.runtime.agent.AnsweredCall;
import io.idempotent.runtime.agent.ToolCall;
import io.idempotent.runtime.agent.ToolDispatcher;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Inlined around every {@code @IdempotentTool} method. Stateless: each advice is one call into the
 * runtime's dispatcher. If {@code enter} throws (store down, no binding, bad key ...) the exception
 * reaches the caller and the body never runs; a replay skips the body; {@code exit} stores or
 * classifies the outcome and returns the result (or rethrows the body's exception unchanged).
 * An asynchronous tool's call is answered on the caller's thread with the runtime's stage or Mono
 * (the body skipped), whose body is this method invoked again on {@code self} by the runtime.
 */
final class ToolAdvice {

    private ToolAdvice() {
    }

    @Advice.OnMethodEnter(skipOn = AnsweredCall.class)
    static ToolCall enter(@Advice.Origin Class<?> type, @Advice.Origin("#m#d") String method,
            @Advice.This(optional = true) Object self, @Advice.AllArguments Object[] args) {
        return ToolDispatcher.enter(type, method, self, args);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Advice.Enter ToolCall call,
            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned,
            @Advice.Thrown Throwable thrown) throws Throwable {
        returned = call.exit(returned, thrown);
    }
}
