package io.idempotent.runtime.internal;

import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.KeyParts;
import io.idempotent.runtime.binding.ToolPolicy;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * Tool calls whose body returns Reactor's {@code Mono}, over {@link AsyncToolCalls}: nothing
 * happens until a subscription, and each subscription is one call of the same key (so
 * {@code Mono.retry} and {@code retryWhen} retry the operation as a caller would). Loaded only when
 * reactor-core is on the class path (an optional dependency of the runtime). Not for application
 * code.
 *
 * <p>The key is rendered at subscription, with the step of the subscriber's Reactor
 * {@code Context} (entry {@link Step#CONTEXT_KEY}) when it has one, else the thread's
 * {@link Step}; two different steps refuse the call, as for a context parameter. Cancelling the
 * subscription cancels the call ({@link AsyncToolCalls}: released before the body started, else
 * classified as a failure). The body's {@code Mono} is subscribed on the runtime's executor after
 * the claim, and the value is delivered from there.
 */
public final class MonoToolCalls {

    private MonoToolCalls() {
    }

    /**
     * A {@code Mono} that calls the tool on each subscription.
     *
     * @param key renders the operation key; called at subscription, with the subscriber's step current
     * @param resultType the type of the Mono's value, which is stored and replayed
     * @param body invoked at most once per subscription, after the claim, on the runtime's executor
     */
    public static <T> Mono<T> call(AsyncToolCalls calls, ToolPolicy policy, Supplier<String> key,
            Map<String, ?> payload, Type resultType, Class<?> toolClass, Supplier<? extends Mono<? extends T>> body) {
        return Mono.deferContextual(context -> {
            String rendered;
            try {
                rendered = renderWithStep(policy.name(), context.getOrDefault(Step.CONTEXT_KEY, null), key);
            } catch (RuntimeException refused) {
                return Mono.error(refused);
            }
            // Not suppressing cancel: a cancelled subscription cancels the call.
            return Mono.fromFuture(() -> calls.<T>call(policy, rendered, payload, resultType, toolClass,
                    () -> body.get().toFuture()), false);
        });
    }

    /** The key, with the Reactor Context's step current while it is rendered (checked against the thread's). */
    private static String renderWithStep(String tool, Object fromContext, Supplier<String> key) {
        if (fromContext == null) {
            return key.get();
        }
        String step = KeyParts.step(tool, "Reactor's Context", fromContext);
        try (Step ignored = Step.begin(step)) {
            return key.get();
        }
    }
}
