package io.idempotent.annotations;

/**
 * Which outcomes of an earlier attempt a repeated call with the same operation key may
 * re-execute automatically. A completed operation is never re-executed: its stored result is
 * replayed. A payload conflict is never retried.
 */
public enum Retry {

    /**
     * Nothing is re-executed automatically. A repeat of a key whose attempt failed is answered
     * with an exception, whatever the failure was; a new key or an operator decides.
     */
    NEVER,

    /**
     * Only outcomes known not to have started an effect are re-executed: a {@code failed_safe}
     * attempt (it failed before the effect boundary, or with a {@code notAppliedOn} exception),
     * or an uncertain one that the reconciler answered NOT_APPLIED.
     */
    SAFE,

    /**
     * Uncertain outcomes too are re-executed, with the same key, after the reconciler (if any)
     * could not settle them. Allowed only when the downstream deduplicates that key
     * ({@code downstreamKey = true}) or a real reconciler is declared; without a downstream key
     * an outcome the reconciler cannot settle still waits for a person.
     */
    UNCERTAIN
}
