package io.idempotent.test;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.AsyncToolCalls;
import io.idempotent.runtime.internal.RuntimeAccess;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * What a tool method returns, and so how the kit calls it through the runtime: a value through
 * {@code IdempotentRuntime.call}, a {@code CompletionStage} or {@code CompletableFuture} through the
 * runtime's asynchronous calls, a Reactor {@code Mono} through its {@code Mono} calls (each
 * subscription one call), as the agent would. The kit waits for an asynchronous call's answer, so
 * every case reads it as it reads a synchronous one.
 */
enum ReturnKind {

    VALUE {
        @Override
        Object call(IdempotentRuntime runtime, ToolPolicy policy, ToolBinding binding, Object[] args, Body body)
                throws Throwable {
            return runtime.call(policy, binding.key(args), binding.payload(args), binding.resultType(), body::run);
        }

        @Override
        Predicate<Thread> completionWriters() {
            Thread caller = Thread.currentThread();
            return t -> t == caller;
        }
    },

    STAGE {
        @Override
        @SuppressWarnings("unchecked")
        Object call(IdempotentRuntime runtime, ToolPolicy policy, ToolBinding binding, Object[] args, Body body)
                throws Throwable {
            return await(policy, calls(runtime).call(policy, binding.key(args), binding.payload(args),
                    binding.resultType(), null, () -> (CompletionStage<Object>) body.runUnchecked()));
        }
    },

    MONO {
        @Override
        Object call(IdempotentRuntime runtime, ToolPolicy policy, ToolBinding binding, Object[] args, Body body)
                throws Throwable {
            return await(policy, MonoCalls.call(calls(runtime), policy, binding, args, body::runUnchecked));
        }
    };

    /** How long the kit waits for an asynchronous call's answer before it fails the case. */
    private static final Duration ANSWER_DEADLINE = Duration.ofSeconds(60);

    /** The tool's body: the real method on the case's tool instance. */
    interface Body {
        Object run() throws Throwable;

        /** As the agent's re-invocation does: the body's own exception, unchanged, for the runtime to classify. */
        default Object runUnchecked() {
            try {
                return run();
            } catch (Throwable thrown) {
                throw ReturnKind.<RuntimeException>sneaky(thrown);
            }
        }
    }

    /**
     * Calls the tool once with {@code args} and waits for its answer.
     *
     * @return the value (the body's or a replayed one)
     * @throws Throwable what a synchronous call would throw, or the asynchronous call failed with
     */
    abstract Object call(IdempotentRuntime runtime, ToolPolicy policy, ToolBinding binding, Object[] args, Body body)
            throws Throwable;

    /**
     * The threads that write a body's outcome, asked when the body returns: the caller's own for a
     * synchronous tool; the runtime's executor, where an asynchronous body's value is stored.
     */
    Predicate<Thread> completionWriters() {
        // The runtime's store threads; its body threads (same prefix, then "body-") never write an outcome.
        return t -> t.getName().startsWith(AsyncToolCalls.THREAD_NAME + "-")
                && !t.getName().startsWith(AsyncToolCalls.BODY_THREAD_NAME + "-");
    }

    static ReturnKind of(Method method) {
        Class<?> returned = method.getReturnType();
        if (returned == CompletionStage.class || returned == CompletableFuture.class) {
            return STAGE;
        }
        return returned.getName().equals("reactor.core.publisher.Mono") ? MONO : VALUE;
    }

    private static AsyncToolCalls calls(IdempotentRuntime runtime) {
        return RuntimeAccess.engine(runtime).async();
    }

    private static Object await(ToolPolicy policy, CompletableFuture<Object> answer) throws Throwable {
        try {
            return answer.get(ANSWER_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException failed) {
            throw failed.getCause();
        } catch (TimeoutException late) {
            answer.cancel(false);
            throw new TimeoutException("tool " + policy.name() + " gave no answer within " + ANSWER_DEADLINE.toSeconds()
                    + " s: does its stage or Mono ever complete?");
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable thrown) throws E {
        throw (E) thrown;
    }
}
