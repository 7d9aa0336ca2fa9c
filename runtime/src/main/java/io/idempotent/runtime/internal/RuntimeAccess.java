package io.idempotent.runtime.internal;

import io.idempotent.runtime.IdempotentRuntime;
import java.util.function.Function;

/**
 * Lets the runtime's own packages (the agent dispatcher, tests) reach the engine behind an
 * {@link IdempotentRuntime} without putting it into the public API.
 */
public final class RuntimeAccess {

    private static volatile Function<IdempotentRuntime, Engine> engines;
    private static volatile Runnable globalReset;

    private RuntimeAccess() {
    }

    /** Called once by {@link IdempotentRuntime}'s static initialiser. */
    public static void install(Function<IdempotentRuntime, Engine> access, Runnable forgetGlobal) {
        engines = access;
        globalReset = forgetGlobal;
    }

    /** The engine of {@code runtime}. */
    public static Engine engine(IdempotentRuntime runtime) {
        initialise();
        return engines.apply(runtime);
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
