package io.idempotent.runtime.internal;

import io.idempotent.runtime.IdempotentRuntime;
import java.util.function.Function;

/**
 * Lets the runtime's own packages (the agent dispatcher, tests) reach the engine behind an
 * {@link IdempotentRuntime} without putting it into the public API.
 */
public final class RuntimeAccess {

    private static volatile Function<IdempotentRuntime, Engine> engines;

    private RuntimeAccess() {
    }

    /** Called once by {@link IdempotentRuntime}'s static initialiser. */
    public static void install(Function<IdempotentRuntime, Engine> access) {
        engines = access;
    }

    /** The engine of {@code runtime}. */
    public static Engine engine(IdempotentRuntime runtime) {
        Function<IdempotentRuntime, Engine> access = engines;
        if (access == null) {
            // Initialising the class runs its static initialiser, which installs the accessor.
            try {
                Class.forName(IdempotentRuntime.class.getName(), true, IdempotentRuntime.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            access = engines;
        }
        return access.apply(runtime);
    }
}
