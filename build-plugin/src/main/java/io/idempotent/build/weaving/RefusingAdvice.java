package io.idempotent.build.weaving;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.bytebuddy.asm.Advice;

/**
 * Inlined instead of {@link ToolAdvice} when a call cannot be claimed: the agent did not start
 * (its arguments were refused, its installation failed), the tool's class loader cannot see the
 * runtime, or a listed tool has no exact method. The body must never run outside the protocol, so
 * every call fails with the reason. It may only use JDK classes: it runs inside the tool's class,
 * whatever that class can see.
 */
public final class RefusingAdvice {

    /** The reason of the refusal, bound as a constant when the advice is applied. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    @interface Reason {
    }

    private RefusingAdvice() {
    }

    /** The advice refusing every call with {@code reason}. */
    public static Advice refusing(String reason) {
        return Advice.withCustomMapping().bind(Reason.class, reason).to(RefusingAdvice.class);
    }

    @Advice.OnMethodEnter
    static void enter(@Advice.Origin("#t.#m") String method, @Reason String reason) {
        throw new IllegalStateException(Refusals.PREFIX + method + Refusals.REFUSED + reason);
    }
}
