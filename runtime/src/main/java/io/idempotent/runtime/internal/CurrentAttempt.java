package io.idempotent.runtime.internal;

import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.internal.readiness.Unwrapped;
import java.util.ArrayDeque;
import java.util.Deque;

/** The attempts whose bodies run on the current thread, innermost last (tools may call tools). */
public final class CurrentAttempt {

    private static final ThreadLocal<Deque<AttemptContext>> STACK = ThreadLocal.withInitial(ArrayDeque::new);

    private CurrentAttempt() {
    }

    /** The innermost attempt of this thread. */
    public static OperationContext require() {
        AttemptContext current = STACK.get().peekLast();
        if (current == null) {
            throw new IllegalStateException("OperationContext.current() is only available inside the body of an"
                    + " @IdempotentTool method (or of IdempotentRuntime.call) on the thread that runs it. Called from"
                    + " a tool method, its body runs without the protocol (no claim, no replay): " + Unwrapped.ADVICE);
        }
        return current;
    }

    /** The innermost attempt of this thread, or null outside any body. */
    static AttemptContext current() {
        return STACK.get().peekLast();
    }

    static void push(AttemptContext context) {
        STACK.get().addLast(context);
    }

    static void pop(AttemptContext context) {
        // The empty deque stays with the thread (a JDK type, so it pins no class loader): removing
        // and re-creating the thread-local entry on every call cost more than the rest of this.
        STACK.get().removeLastOccurrence(context);
    }
}
