package io.idempotent.agent;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the agent did in this JVM: how many classes it wrapped and how many transformations
 * failed. Tests and operators read it; a non-zero error count means some tool may not be wrapped.
 */
public final class AgentStatus {

    private static final AtomicInteger TRANSFORMED = new AtomicInteger();
    private static final AtomicInteger ERRORS = new AtomicInteger();

    private AgentStatus() {
    }

    /** Classes with tool methods that the agent wrapped. */
    public static int transformedClasses() {
        return TRANSFORMED.get();
    }

    /** Byte Buddy transformation errors so far. */
    public static int transformationErrors() {
        return ERRORS.get();
    }

    static void transformed() {
        TRANSFORMED.incrementAndGet();
    }

    static void error() {
        ERRORS.incrementAndGet();
    }
}
