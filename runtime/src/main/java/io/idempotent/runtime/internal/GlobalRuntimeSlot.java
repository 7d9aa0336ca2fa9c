package io.idempotent.runtime.internal;

import io.idempotent.runtime.StoreConfigurationException;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The JVM's global runtime, which the agent's tool calls use: the one the application set, or,
 * when the application never set one, one built from the environment on first use and closed by
 * a JVM shutdown hook. Once the application has set one, a closed or cleared one is never
 * replaced behind its back: calls are refused until it sets one again. Apart from the runtime
 * itself because it is the JVM's state, under its own lock, not one runtime's; it knows of a
 * runtime only how to build one, whether it is closed and how to close it.
 *
 * @param <R> the runtime
 */
public final class GlobalRuntimeSlot<R> {

    private final Object lock = new Object();
    private final Supplier<R> fromEnvironment;
    private final Predicate<R> isClosed;
    private final Consumer<R> close;

    private volatile R global;
    /** Whether the application ever chose the global runtime with {@link #set}. */
    private volatile boolean globalChosen;

    /**
     * An empty slot.
     *
     * @param fromEnvironment builds the runtime used when the application never set one
     * @param isClosed whether a runtime was closed
     * @param close closes a runtime
     */
    public GlobalRuntimeSlot(Supplier<R> fromEnvironment, Predicate<R> isClosed, Consumer<R> close) {
        this.fromEnvironment = Objects.requireNonNull(fromEnvironment, "fromEnvironment");
        this.isClosed = Objects.requireNonNull(isClosed, "isClosed");
        this.close = Objects.requireNonNull(close, "close");
    }

    /**
     * The global runtime: the one set, or one from the environment, created on first use.
     *
     * @throws StoreConfigurationException if the application's global runtime was closed or
     *     cleared, or the JVM is shutting down when the first one is needed
     */
    public R get() {
        R current = global;
        if (current != null) {
            if (isClosed.test(current)) {
                throw new StoreConfigurationException(null, null, "the application's global IdempotentRuntime was"
                        + " closed; tool calls are refused rather than run against another store", "Set an open"
                        + " runtime with IdempotentRuntime.setGlobal", null);
            }
            return current;
        }
        synchronized (lock) {
            if (global == null) {
                if (globalChosen) {
                    throw new StoreConfigurationException(null, null, "the application's global IdempotentRuntime"
                            + " was cleared (setGlobal(null)); tool calls are refused rather than run against the"
                            + " embedded default store", "Set the runtime again with IdempotentRuntime.setGlobal, or"
                            + " setGlobal(IdempotentRuntime.fromEnvironment()) to use the configured store", null);
                }
                global = closedAtExit(fromEnvironment.get());
            }
            return global;
        }
    }

    /**
     * Closes {@code runtime} when the JVM exits normally, so that the answers its stores still
     * hold reach the attempt log: the global runtime the agent's calls create is nobody else's to
     * close. (One the application builds, or sets as global, is the application's to close.)
     */
    private R closedAtExit(R runtime) {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> close.accept(runtime), "idempotent-runtime-close"));
        } catch (IllegalStateException shuttingDown) {
            // A runtime first needed while the JVM exits could not write its answers: no call is answered from it.
            close.accept(runtime);
            throw new StoreConfigurationException(null, null, "the JVM is shutting down; the tool call is refused and"
                    + " the body did not run", "Make tool calls before the JVM exits", shuttingDown);
        }
        return runtime;
    }

    /** Makes {@code runtime} the global one (null clears it); returns the previous one. */
    public R set(R runtime) {
        synchronized (lock) {
            R previous = global;
            global = runtime;
            globalChosen = true;
            return previous;
        }
    }

    /** Back to the state of a JVM where the application never chose a global runtime (tests). */
    public void forget() {
        synchronized (lock) {
            global = null;
            globalChosen = false;
        }
    }
}
