package io.idempotent.runtime.internal.store;

import java.time.Instant;

/**
 * What one guarded change of an operation row did. The store reports the row as the change left
 * it, so no caller predicts a lease token; a change whose guard no longer held (another attempt
 * got there first, the lease expired, the token moved on) changed nothing and says so.
 */
public sealed interface Transition {

    /** Whether the row was changed. */
    boolean applied();

    /**
     * The row changed; these are its values afterwards.
     *
     * @param leaseToken the fencing token now on the row
     * @param attempts how many attempts have claimed the operation, this one included
     * @param leaseUntil when the lease now ends (database clock), or null when none is held
     */
    record Applied(long leaseToken, int attempts, Instant leaseUntil) implements Transition {
        @Override
        public boolean applied() {
            return true;
        }
    }

    /**
     * The guard did not hold: the row is no longer as the caller observed it, and nothing changed.
     *
     * @param transition which change was refused, for messages
     */
    record LostRace(String transition) implements Transition {
        @Override
        public boolean applied() {
            return false;
        }
    }
}
