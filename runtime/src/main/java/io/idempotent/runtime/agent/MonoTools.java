package io.idempotent.runtime.agent;

import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.internal.AsyncToolCalls;
import io.idempotent.runtime.internal.MonoToolCalls;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * The {@code Mono} half of {@link AsyncTools}, in a class of its own so that only a tool returning
 * a {@code Mono} loads reactor-core (an optional dependency).
 */
final class MonoTools {

    private MonoTools() {
    }

    /** A Mono that claims the key on each subscription and then subscribes the body's own Mono. */
    @SuppressWarnings("unchecked")
    static Mono<Object> call(AsyncToolCalls calls, ToolBinding binding, Class<?> toolClass, Object[] args,
            Supplier<Object> body) {
        return MonoToolCalls.call(calls, binding.policy(), () -> binding.key(args), binding.payload(args),
                binding.resultType(), toolClass, () -> (Mono<Object>) body.get());
    }
}
