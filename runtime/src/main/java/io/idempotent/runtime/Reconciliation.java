package io.idempotent.runtime;

import java.util.Objects;

/**
 * A reconciler's answer: the effect was applied (with the result the tool would have returned),
 * was not applied, or cannot be known.
 *
 * @param <R> the tool's result type
 */
public final class Reconciliation<R> {

    /** The three answers. */
    public enum Outcome {
        /** The effect happened; the operation completes with the reconciled result. */
        APPLIED,
        /** The effect provably did not happen; the operation may run again. */
        NOT_APPLIED,
        /** Nobody can tell yet; a person decides. */
        UNKNOWN
    }

    private final Outcome outcome;
    private final R result;
    private final String reason;

    private Reconciliation(Outcome outcome, R result, String reason) {
        this.outcome = outcome;
        this.result = result;
        this.reason = reason;
    }

    /** The effect happened; {@code result} is what the tool returns (null for void tools). */
    public static <R> Reconciliation<R> applied(R result) {
        return new Reconciliation<>(Outcome.APPLIED, result, "applied");
    }

    /**
     * The effect did not happen, for the given reason: kept in the attempt log, where an operator
     * reads it, and never put into an exception message or a log line.
     */
    public static <R> Reconciliation<R> notApplied(String reason) {
        return new Reconciliation<>(Outcome.NOT_APPLIED, null, Objects.requireNonNull(reason, "reason"));
    }

    /**
     * Nobody can tell, for the given reason: kept in the attempt log, where an operator reads it
     * (the command line's {@code show}, the web console, {@link Operations#find}). The caller's
     * {@link NeedsReconciliationException} and the runtime's log lines name the reconciler and
     * its answer, never this text, which often quotes a downstream's reply.
     */
    public static <R> Reconciliation<R> unknown(String reason) {
        return new Reconciliation<>(Outcome.UNKNOWN, null, Objects.requireNonNull(reason, "reason"));
    }

    /** Which answer this is. */
    public Outcome outcome() {
        return outcome;
    }

    /** The reconciled result; only meaningful for {@link Outcome#APPLIED}. */
    public R result() {
        return result;
    }

    /** Why, in words for the incident review. */
    public String reason() {
        return reason;
    }

    /** The outcome and the reason's length, never the reason or the result (they may quote a downstream). */
    @Override
    public String toString() {
        return outcome + (outcome == Outcome.APPLIED ? "" : " (reason: " + reason.length() + " characters)");
    }
}
