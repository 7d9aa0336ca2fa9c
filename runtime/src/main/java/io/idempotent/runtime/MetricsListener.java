package io.idempotent.runtime;

import java.time.Duration;
import java.util.List;

/**
 * Receives a count for every protocol event, per tool. Implementations must be thread-safe and
 * fast (they run on the caller's thread); every method has an empty default.
 * {@link CountingMetrics} keeps simple counters.
 */
public interface MetricsListener {

    /** A call of the tool reached the runtime (whatever it is answered). */
    default void attempt(String tool) {
    }

    /** A call claimed the key and is running the body. */
    default void executed(String tool) {
    }

    /** A call was answered with the stored result. */
    default void replayed(String tool) {
    }

    /** A call was rejected: same key, different payload. */
    default void payloadConflict(String tool) {
    }

    /** A call was answered that another attempt holds the lease. */
    default void inProgress(String tool) {
    }

    /** An operation entered {@code needs_reconciliation}. */
    default void awaitingReconciliation(String tool) {
    }

    /** A reconciler (or an operator) answered for an uncertain operation. */
    default void reconciled(String tool, Reconciliation.Outcome outcome) {
    }

    /**
     * An attempt failed before any effect could have begun (an exception listed in
     * {@code notAppliedOn}, or a failure before the effect boundary): the operation is
     * {@code failed_safe}.
     */
    default void failedSafe(String tool) {
    }

    /** How long the store took to claim (or read) the key for one call. */
    default void claimLatency(String tool, Duration elapsed) {
    }

    /** How long the store took to record an attempt's completion. */
    default void completionLatency(String tool, Duration elapsed) {
    }

    /**
     * How one call of the tool was answered, once per call, with its operation key. For tracing
     * (a span attribute); metrics should not tag by key, since keys are unbounded and may carry
     * business identifiers.
     */
    default void answered(String tool, String key, CallOutcome outcome) {
    }

    /**
     * A duplicate call found its operation in progress and waited for the attempt running it
     * ({@code IdempotentRuntime.Builder#duplicateWait}): {@code answered} when the wait ended
     * with that attempt's outcome (a replay or its failure), false when it ended without one (its
     * bound passed, or the lease lapsed) and the call was answered in progress.
     */
    default void duplicateWaited(String tool, Duration waited, boolean answered) {
    }

    /** A listener that passes every event to each of {@code listeners}, in order. */
    static MetricsListener composite(MetricsListener... listeners) {
        return new CompositeMetricsListener(List.of(listeners));
    }

    /** The listener that ignores everything. */
    MetricsListener NONE = new MetricsListener() {
    };

    /**
     * The database refused, for good, an answer's row of the attempt log that the background
     * writer had queued (a value it cannot store): that row is logged by tool and key and not
     * written, the other rows are. Called on the writer's thread.
     */
    default void attemptLogRowRefused(String tool) {
    }

    /** A call recorded a new operation as awaiting approval. */
    default void approvalRequested(String tool) {
    }

    /** An operator granted an operation (in this JVM: the runtime or console that decided). */
    default void approvalGranted(String tool) {
    }

    /** An operator denied an operation (in this JVM). */
    default void approvalDenied(String tool) {
    }

    /**
     * A grant expired before it was used, and this runtime recorded it: a call, a decision, the
     * approval queue's read or the purge found it first. The operation awaits approval again.
     */
    default void approvalExpired(String tool) {
    }
}
