package io.idempotent.runtime.internal.store;

import java.time.Instant;

/**
 * The answer of the atomic claim statement: either this call inserted the row and owns its
 * first lease, or the row existed and this is what it held.
 */
public sealed interface ClaimResult {

    /**
     * Whether a claim that failed with {@code e} may have been recorded before the store failed
     * (its statement was sent, its answer lost), as opposed to refused before any statement.
     */
    static boolean mayHaveBeenRecorded(io.idempotent.runtime.StoreUnavailableException e) {
        return e.happened().contains(ClaimFate.MAY_HAVE_CLAIMED.said());
    }

    /**
     * This call created the operation and owns it, as the store wrote it.
     *
     * @param leaseToken the fencing token of this attempt
     * @param attempts the attempt count on the new row (1)
     * @param leaseUntil when the lease ends (database clock)
     */
    record Inserted(long leaseToken, int attempts, Instant leaseUntil) implements ClaimResult {
    }

    /** The operation existed; the caller decides from its state. */
    record Existing(StoredOperation operation) implements ClaimResult {
    }
}
