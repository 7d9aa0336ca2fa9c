package io.idempotent.runtime.internal;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Attempt ids in the UUID text form the attempt log stores: 64 random bits chosen once per JVM
 * (60 after the version nibble) and a counter, so ids never repeat within a JVM and two JVMs
 * share one only if their random halves collide. A {@link UUID#randomUUID()} per call would ask
 * {@link SecureRandom} every time, which costs more than the rest of a call's bookkeeping; the id
 * is not a secret. It fences an attempt's writes together with the lease token (which restarts
 * at 1 on a lost record's key claimed afresh), so two attempts confused would need the same
 * token and a colliding id as well.
 */
final class AttemptIds {

    private static final long JVM_BITS;
    private static final AtomicLong COUNTER;

    static {
        SecureRandom random = new SecureRandom();
        // Version 4 nibble, like a random UUID, so the id parses and reads as one.
        JVM_BITS = (random.nextLong() & ~0xF000L) | 0x4000L;
        COUNTER = new AtomicLong(random.nextLong());
    }

    private AttemptIds() {
    }

    /** A new attempt id. */
    static String next() {
        // IETF variant bits on top of a 62-bit count.
        long low = (COUNTER.getAndIncrement() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(JVM_BITS, low).toString();
    }
}
