package io.idempotent.runtime;

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

    /** The listener that ignores everything. */
    MetricsListener NONE = new MetricsListener() {
    };
}
