package io.idempotent.failover;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polling with a deadline: the tests wait for a condition, never for a length of time. */
final class Deadline {

    private Deadline() {
    }

    /** Polls {@code condition} until it holds; fails after {@code limit} with {@code state} in the message. */
    static void await(Duration limit, String what, BooleanSupplier condition, Supplier<String> state) {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + limit + ": " + what + " (" + state.get() + ")");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting: " + what, e);
            }
        }
    }

    static void await(Duration limit, String what, BooleanSupplier condition) {
        await(limit, what, condition, () -> "still false");
    }
}
