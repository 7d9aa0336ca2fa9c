package io.idempotent.runtime.internal;

import java.util.function.Supplier;

/**
 * The {@link io.idempotent.runtime.Step#CONTEXT_KEY} entry of a subscriber's Reactor
 * {@code Context} while {@link MonoToolCalls} renders a {@code Mono} tool's key at subscription,
 * where {@link io.idempotent.runtime.binding.KeyParts#step(String) KeyParts.step} reads it between
 * the context parameter and the thread's step. A thread-local, not a {@code Step}, so that a
 * disagreement names the source it came from. Not for application code.
 */
public final class SubscriberStep {

    private static final ThreadLocal<Object> ENTRY = new ThreadLocal<>();

    private SubscriberStep() {
    }

    /** Renders with {@code entry} (null when the Context has none) as the subscriber's step. */
    static <T> T rendering(Object entry, Supplier<T> render) {
        Object previous = ENTRY.get();
        ENTRY.set(entry);
        try {
            return render.get();
        } finally {
            if (previous == null) {
                ENTRY.remove();
            } else {
                ENTRY.set(previous);
            }
        }
    }

    /** The subscriber's step entry while a key is rendered at subscription, else null. */
    public static Object entry() {
        return ENTRY.get();
    }
}
