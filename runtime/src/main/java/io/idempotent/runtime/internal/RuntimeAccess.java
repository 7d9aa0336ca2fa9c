package io.idempotent.runtime.internal;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.internal.RuntimeConfiguration.StoreSettings;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Lets the runtime's own packages (the agent dispatcher, tests) and the operator's command line
 * reach the engine behind an {@link IdempotentRuntime}, and build one on a store's configured
 * settings, without putting either into the public API.
 */
public final class RuntimeAccess {

    private static volatile Function<IdempotentRuntime, Engine> engines;
    private static volatile Runnable globalReset;
    private static volatile BiConsumer<IdempotentRuntime.Builder, StoreSettings> storeSettings;

    private RuntimeAccess() {
    }

    /** Called once by {@link IdempotentRuntime}'s static initialiser. */
    public static void install(Function<IdempotentRuntime, Engine> access, Runnable forgetGlobal,
            BiConsumer<IdempotentRuntime.Builder, StoreSettings> settings) {
        engines = access;
        globalReset = forgetGlobal;
        storeSettings = settings;
    }

    /** The engine of {@code runtime}. */
    public static Engine engine(IdempotentRuntime runtime) {
        initialise();
        return engines.apply(runtime);
    }

    /**
     * Adds the store {@code settings} describes to {@code builder} with every one of its settings
     * (timeouts, pool, attempt log), as {@link IdempotentRuntime#fromEnvironment()} does; a
     * {@code schema} of null takes the builder's. For the operator's command line, which reads the
     * application's configuration ({@link RuntimeConfiguration}) with its own options on top.
     */
    public static IdempotentRuntime.Builder store(IdempotentRuntime.Builder builder, StoreSettings settings) {
        initialise();
        storeSettings.accept(builder, settings);
        return builder;
    }

    /**
     * Returns the JVM to the state in which the application never chose a global runtime, so
     * {@link IdempotentRuntime#global()} builds one from the environment again. For tests that run
     * one after another in one JVM; an application never needs it.
     */
    public static void forgetGlobal() {
        initialise();
        globalReset.run();
    }

    private static void initialise() {
        if (engines == null) {
            // Initialising the class runs its static initialiser, which installs the accessors.
            try {
                Class.forName(IdempotentRuntime.class.getName(), true, IdempotentRuntime.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
