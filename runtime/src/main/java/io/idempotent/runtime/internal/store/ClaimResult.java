package io.idempotent.runtime.internal.store;

/**
 * The answer of the atomic claim statement: either this call inserted the row and owns lease
 * token 1, or the row existed and this is what it held.
 */
public sealed interface ClaimResult {

    /** This call created the operation and owns it with {@code leaseToken}. */
    record Inserted(long leaseToken) implements ClaimResult {
    }

    /** The operation existed; the caller decides from its state. */
    record Existing(StoredOperation operation) implements ClaimResult {
    }
}
