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

    private Effects() {
    }

    /** Records one business effect. */
    public static void record(String effect) {
        EFFECTS.add(effect);
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
    }
}
