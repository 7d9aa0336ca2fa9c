package io.idempotent.test;

import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.AsyncToolCalls;
import io.idempotent.runtime.internal.MonoToolCalls;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * The {@code Mono} half of {@link ReturnKind}, in a class of its own so that only a contract of a
 * tool returning a {@code Mono} loads reactor-core (an optional dependency of the kit).
 */
final class MonoCalls {

    private MonoCalls() {
    }

    /** Subscribes the tool's Mono once, here (its key rendered with this thread's step), as a future. */
    @SuppressWarnings("unchecked")
    static CompletableFuture<Object> call(AsyncToolCalls calls, ToolPolicy policy, ToolBinding binding, Object[] args,
            Supplier<Object> body) {
        return MonoToolCalls.<Object>call(calls, policy, () -> binding.key(args), binding.payload(args),
                binding.resultType(), null, () -> (Mono<Object>) body.get()).toFuture();
    }
}
