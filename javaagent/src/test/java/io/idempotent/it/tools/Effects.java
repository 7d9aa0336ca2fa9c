package io.idempotent.it.tools;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The downstream double of the in-process tests: every business effect a tool body performs is
 * recorded here. It lives apart from the tool class so that a copy of the tool class loaded by
 * another class loader records into the same list.
 */
public final class Effects {

    private static final List<String> EFFECTS = new CopyOnWriteArrayList<>();

    private static final java.util.Set<String> DECLINES = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Effects whose body waits, once it has started, until the test opens the gate. */
    private static final java.util.Map<String, java.util.concurrent.CountDownLatch[]> GATES =
            new java.util.concurrent.ConcurrentHashMap<>();

    private Effects() {
    }

    /** Records one business effect (after waiting at its gate, if the test set one). */
    public static void record(String effect) {
        java.util.concurrent.CountDownLatch[] gate = GATES.remove(effect);
        if (gate != null) {
            gate[0].countDown();
            try {
                if (!gate[1].await(30, java.util.concurrent.TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the gate of " + effect + " was never opened");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        EFFECTS.add(effect);
    }

    /**
     * Makes the next body recording {@code effect} count down {@code entered} and then wait for
     * {@code open}: a call held inside its body, for the in-progress tests.
     */
    public static void gate(String effect, java.util.concurrent.CountDownLatch entered,
            java.util.concurrent.CountDownLatch open) {
        GATES.put(effect, new java.util.concurrent.CountDownLatch[] {entered, open});
    }

    /** How many effects named {@code effect} happened. */
    public static long count(String effect) {
        return EFFECTS.stream().filter(effect::equals).count();
    }

    /** How many effects happened in all. */
    public static int total() {
        return EFFECTS.size();
    }

    /** Makes the next charge of {@code customer} decline, before anything is charged. */
    public static void declineNextCharge(String customer) {
        DECLINES.add(customer);
    }

    /** Whether a decline was asked for {@code customer}; takes it. */
    public static boolean takeDecline(String customer) {
        return DECLINES.remove(customer);
    }

    /** Forgets every effect and decline (between tests). */
    public static void clear() {
        EFFECTS.clear();
        DECLINES.clear();
        GATES.clear();
    }
}
