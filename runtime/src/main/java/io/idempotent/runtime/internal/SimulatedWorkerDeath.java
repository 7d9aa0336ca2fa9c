package io.idempotent.runtime.internal;

/**
 * For the contract test kit ({@code io.idempotent:idempotent-test}) only: thrown inside a tool
 * body to simulate a worker that dies at that point without killing the test JVM. The attempt
 * is abandoned as a dead worker leaves it: its heartbeat stops, nothing is recorded, and the
 * operation stays {@code in_progress} until its lease expires. Never throw it in production code.
 */
public final class SimulatedWorkerDeath extends Error {

    private static final long serialVersionUID = 1L;

    /** A death at the point described by {@code where} (for the test's own messages). */
    public SimulatedWorkerDeath(String where) {
        super("simulated worker death (contract test kit): " + where, null, false, false);
    }
}
