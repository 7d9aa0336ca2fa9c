package io.idempotent.it.probe;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** What the probe's tool body does after its effect: nothing, halt the JVM, or hold the key. */
final class ProbeHooks {

    /** Exit code of a JVM halted inside the body. */
    static final int HALTED = 3;

    private static volatile boolean halt;
    private static volatile CountDownLatch holdUntil;
    private static volatile boolean announceHold;
    private static final ThreadLocal<Boolean> RAN = ThreadLocal.withInitial(() -> false);

    private ProbeHooks() {
    }

    /** The next body halts the JVM right after its effect, before the runtime can record anything. */
    static void haltAfterEffect() {
        halt = true;
    }

    /** The body keeps the key in progress until {@code latch} opens (so that racers meet it). */
    static void holdUntil(CountDownLatch latch) {
        holdUntil = latch;
    }

    /** The body holds the key after its effect until the JVM is killed, and says so ({@code EFFECT_COMMITTED holding}). */
    static void holdUntilKilled() {
        announceHold = true;
        holdUntil = new CountDownLatch(1);
    }

    /** Whether the body ran in this thread since the last question. */
    static boolean takeRanInThisThread() {
        boolean ran = RAN.get();
        RAN.remove();
        return ran;
    }

    static void afterEffect() {
        RAN.set(true);
        if (halt) {
            System.out.println("EFFECT_COMMITTED halting");
            System.out.flush();
            Runtime.getRuntime().halt(HALTED);
        }
        CountDownLatch latch = holdUntil;
        if (latch != null && announceHold) {
            System.out.println("EFFECT_COMMITTED holding");
            System.out.flush();
        }
        if (latch != null) {
            try {
                if (!latch.await(60, TimeUnit.SECONDS)) {
                    System.out.println("HOLD_TIMEOUT");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
