package io.idempotent.build.weaving;

import io.idempotent.runtime.agent.AnsweredCall;
import io.idempotent.runtime.agent.ToolCall;
import io.idempotent.runtime.agent.ToolDispatcher;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.pool.TypePool;

/**
 * Inlined around every tool method, by the agent at load time and by the build plugin at build
 * time: the one advice of both. Stateless: each advice is one call into the runtime's dispatcher.
 * If {@code enter} throws (store down, no binding, bad key ...) the exception reaches the caller
 * and the body never runs; a replay skips the body; {@code exit} stores or classifies the outcome
 * and returns the result (or rethrows the body's exception unchanged). An asynchronous tool's call
 * is answered on the caller's thread with the runtime's stage or Mono (the body skipped), whose
 * body is this method invoked again on {@code self} by the runtime.
 *
 * <p>Inlined code references the runtime and the JDK only, never Byte Buddy: a class woven at build
 * time runs without it. When the runtime is missing from the class path of a woven class, the
 * dispatcher cannot be resolved and the call is refused with the agent's words for that case.
 */
public final class ToolAdvice {

    private static final String RUNTIME_PACKAGE = "io/idempotent/runtime/";

    private ToolAdvice() {
    }

    /**
     * The advice, described from class files, not reflection: it names runtime types, which the
     * caller's own loader may not see (an agent whose runtime lives in a Spring Boot jar's nested
     * lib/, a build plugin whose runtime is on the project's class path only); {@code runtime}
     * finds them.
     */
    public static Advice advice(ClassFileLocator runtime) {
        ClassFileLocator locator = new ClassFileLocator.Compound(
                ClassFileLocator.ForClassLoader.of(ToolAdvice.class.getClassLoader()), runtime);
        return Advice.to(TypePool.Default.of(locator).describe(ToolAdvice.class.getName()).resolve(), locator);
    }

    @Advice.OnMethodEnter(skipOn = AnsweredCall.class)
    static ToolCall enter(@Advice.Origin Class<?> type, @Advice.Origin("#m#d") String method,
            @Advice.Origin("#t.#m") String tool, @Advice.This(optional = true) Object self,
            @Advice.AllArguments Object[] args) {
        try {
            return ToolDispatcher.enter(type, method, self, args);
        } catch (NoClassDefFoundError e) {
            if (e.getMessage() != null && e.getMessage().startsWith(RUNTIME_PACKAGE)) {
                throw new IllegalStateException(Refusals.PREFIX + tool + Refusals.REFUSED + Refusals.RUNTIME_MISSING, e);
            }
            throw e;
        }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class)
    static void exit(@Advice.Enter ToolCall call,
            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned,
            @Advice.Thrown Throwable thrown) throws Throwable {
        returned = call.exit(returned, thrown);
    }
}
