package io.idempotent.test;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The tool under test of one contract case, on its downstream: the tool instance (built with the
 * case's {@link Faults} in its client), and how to count requests that reached the downstream and
 * business effects it applied. Built fresh for every case.
 *
 * @param <T> the tool class
 */
public final class Downstream<T> {

    private final T tool;
    private final LongSupplier requests;
    private final LongSupplier effects;
    private final ProviderDouble providerDouble;
    private AutoCloseable cleanup;

    private Downstream(T tool, LongSupplier requests, LongSupplier effects, ProviderDouble providerDouble) {
        this.tool = Objects.requireNonNull(tool, "tool");
        this.requests = Objects.requireNonNull(requests, "requests");
        this.effects = Objects.requireNonNull(effects, "effects");
        this.providerDouble = providerDouble;
    }

    /**
     * A tool on the user's own downstream (their provider's test server, an in-memory fake):
     * {@code requests} counts what reached it, {@code effects} what it changed.
     */
    public static <T> Downstream<T> of(T tool, LongSupplier requests, LongSupplier effects) {
        return new Downstream<>(tool, requests, effects, null);
    }

    /** A tool on a {@link ProviderDouble} of the case, counted by the double. */
    public static <T> Downstream<T> of(T tool, ProviderDouble providerDouble) {
        Objects.requireNonNull(providerDouble, "providerDouble");
        return new Downstream<>(tool, providerDouble::requests, providerDouble::effects, providerDouble);
    }

    /** Closed after the case (a test server to stop, a temporary directory to delete). */
    public Downstream<T> onClose(AutoCloseable cleanup) {
        this.cleanup = cleanup;
        return this;
    }

    T tool() {
        return tool;
    }

    long requests() {
        return requests.getAsLong();
    }

    long effects() {
        return effects.getAsLong();
    }

    /** The double, when the case runs on one. */
    ProviderDouble providerDouble() {
        return providerDouble;
    }

    void close() throws Exception {
        if (cleanup != null) {
            cleanup.close();
        }
    }
}
