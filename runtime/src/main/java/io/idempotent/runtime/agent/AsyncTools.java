package io.idempotent.runtime.agent;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.internal.AsyncToolCalls;
import io.idempotent.runtime.internal.RuntimeAccess;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The agent's path for a tool method returning {@code CompletionStage<T>},
 * {@code CompletableFuture<T>} or Reactor's {@code Mono<T>}.
 *
 * <p>The advice is inlined into the method, so it cannot move the body to another thread. Instead,
 * on the caller's thread, the body is skipped and the method returns the runtime's stage
 * ({@link AsyncToolCalls}) or {@code Mono} ({@code MonoToolCalls}); their body is the same method
 * invoked again, on the same instance with the same arguments, on the runtime's executor after the
 * claim, with the {@link Reentry} mark that lets that one invocation through the advice. The
 * invocation is non-virtual ({@code unreflectSpecial}): an override in a subclass does not run in
 * its place.
 */
final class AsyncTools {

    private static final String COMPLETION_STAGE = ")Ljava/util/concurrent/CompletionStage;";
    private static final String COMPLETABLE_FUTURE = ")Ljava/util/concurrent/CompletableFuture;";
    private static final String MONO = ")Lreactor/core/publisher/Mono;";

    /** The methods, by class and descriptor: found once. */
    private static final ClassValue<Map<String, MethodHandle>> METHODS = new ClassValue<>() {
        @Override
        protected Map<String, MethodHandle> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private AsyncTools() {
    }

    /** Whether the method returns one of the asynchronous types the runtime runs itself. */
    static boolean isAsync(String methodDescriptor) {
        return methodDescriptor.endsWith(COMPLETION_STAGE) || methodDescriptor.endsWith(COMPLETABLE_FUTURE)
                || methodDescriptor.endsWith(MONO);
    }

    /** The call on the caller's thread: its stage or Mono, whose body is the method invoked again. */
    static ToolCall call(ToolBinding binding, Class<?> toolClass, String methodDescriptor, Object self, Object[] args) {
        MethodHandle method = METHODS.get(toolClass).computeIfAbsent(methodDescriptor, d -> find(toolClass, d));
        List<Object> arguments = new ArrayList<>(args.length + 1);
        if (self != null) {
            arguments.add(self);
        }
        arguments.addAll(Arrays.asList(args));
        Supplier<Object> body = () -> invokeMarked(toolClass, methodDescriptor, method, arguments);
        AsyncToolCalls calls = RuntimeAccess.engine(IdempotentRuntime.global()).async();
        if (methodDescriptor.endsWith(MONO)) {
            return new AsyncCall(MonoTools.call(calls, binding, toolClass, args, body));
        }
        @SuppressWarnings("unchecked")
        Supplier<CompletionStage<Object>> stage = () -> (CompletionStage<Object>) body.get();
        return new AsyncCall(calls.call(binding, args, binding.resultType(), stage));
    }

    private static Object invokeMarked(Class<?> toolClass, String methodDescriptor, MethodHandle method,
            List<Object> arguments) {
        try {
            return Reentry.run(toolClass, methodDescriptor, () -> method.invokeWithArguments(arguments));
        } catch (Throwable thrown) {
            // Unchanged, so that the runtime classifies the body's own exception.
            throw AsyncTools.<RuntimeException>sneaky(thrown);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable thrown) throws E {
        throw (E) thrown;
    }

    /**
     * The method of {@code toolClass} with this name and descriptor, for a non-virtual call.
     *
     * @throws IllegalStateException when it cannot be found or the runtime may not call it (a
     *     named module that does not open its package): the call fails before any claim
     */
    private static MethodHandle find(Class<?> toolClass, String methodDescriptor) {
        for (Method m : toolClass.getDeclaredMethods()) {
            String descriptor = m.getName() + MethodType.methodType(m.getReturnType(), m.getParameterTypes())
                    .toMethodDescriptorString();
            if (!m.isSynthetic() && descriptor.equals(methodDescriptor)) {
                try {
                    MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(toolClass, MethodHandles.lookup());
                    return Modifier.isStatic(m.getModifiers()) ? lookup.unreflect(m)
                            : lookup.unreflectSpecial(m, toolClass);
                } catch (IllegalAccessException | RuntimeException e) {
                    throw new IllegalStateException("@IdempotentTool method " + toolClass.getName() + "."
                            + m.getName() + " returns a " + m.getReturnType().getSimpleName() + ", whose body the"
                            + " runtime runs on its own executor, but the runtime may not call it: open its package"
                            + " to the runtime (" + e.getMessage() + "): `opens " + toolClass.getPackageName() + ";`"
                            + " in module-info.java, or --add-opens " + toolClass.getModule().getName() + "/"
                            + toolClass.getPackageName() + "=ALL-UNNAMED when idempotent-runtime is on the class"
                            + " path", e);
                }
            }
        }
        throw new IllegalStateException("@IdempotentTool method " + toolClass.getName() + "." + methodDescriptor
                + " was not found in its class");
    }
}
