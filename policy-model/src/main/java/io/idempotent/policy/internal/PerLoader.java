package io.idempotent.policy.internal;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Function;

/**
 * What is read once per class loader (the release-gate tables it sees, and views of them), kept
 * while the loader lives: weak keys, so that a web application's loader that is discarded takes
 * its entry with it. Not for users.
 *
 * @param <T> what is kept per loader
 */
public final class PerLoader<T> {

    private final Map<ClassLoader, T> byLoader = new WeakHashMap<>();
    private final Function<ClassLoader, T> read;

    /** Keeps what {@code read} gives for each loader; {@code read} must not return null. */
    public PerLoader(Function<ClassLoader, T> read) {
        this.read = read;
    }

    /**
     * What was read for {@code loader} (the system class loader for {@code null}), read now if it
     * was not yet. Two threads that ask at once may both read; the first answer is kept.
     */
    public T get(ClassLoader loader) {
        ClassLoader visible = loader != null ? loader : ClassLoader.getSystemClassLoader();
        synchronized (byLoader) {
            T kept = byLoader.get(visible);
            if (kept != null) {
                return kept;
            }
        }
        // Read without the lock: reading a resource may load classes, whose transformation by the
        // agent comes back here (on this thread or, waiting for it, on another).
        T answer = read.apply(visible);
        synchronized (byLoader) {
            return byLoader.computeIfAbsent(visible, l -> answer);
        }
    }
}
