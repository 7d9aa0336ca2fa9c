package io.idempotent.agent;

import net.bytebuddy.asm.Advice;

/**
 * Inlined instead of {@link ToolAdvice} into a tool class whose class loader cannot see the
 * runtime: the body must never run outside the protocol, so every call fails, naming the fix.
 * It may only use JDK classes.
 */
final class MissingRuntimeAdvice {

    private MissingRuntimeAdvice() {
    }

    @Advice.OnMethodEnter
    static void enter(@Advice.Origin("#t.#m") String method) {
        throw new IllegalStateException("@IdempotentTool method " + method + " refused: idempotent-runtime is not"
                + " on its class path, so the call cannot be claimed. Add io.idempotent:idempotent-runtime to the"
                + " application");
    }
}
