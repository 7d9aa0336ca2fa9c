package io.idempotent.runtime.internal;

import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * An attempt's final write, the one place its outcome is stored: fenced by the lease token and the
 * attempt id, tried again while the store fails and the lease lasts, and told apart when it changed
 * nothing (the record taken over by another attempt, or not there at all); a record found missing
 * after the body ran is written again ({@link LostRecords}), and a store that fails that leaves the
 * operation for reconciliation.
 */
final class FencedWrites {

    /**
     * Tries of an attempt's final write. Each waits for a connection up to the store's connect
     * timeout, which is what rides out a restarted server or an embedded store changing hands.
     */
    private static final int FINAL_WRITE_TRIES = 3;

    private FencedWrites() {
    }

    /**
     * An attempt's final write (its completion or its failure), tried again when the store fails
     * under it: the outcome is known here and nowhere else, and an unwritten one leaves the
     * operation to expire into reconciliation. Each try is fenced by the lease token and the attempt
     * id, so trying again is safe; a try that finds nothing to change reads the row, because the
     * failed try may have committed before its reply was lost. After three tries it goes on trying,
     * with a growing pause, while the attempt's lease lasts ({@link FinalWriteRetries}): with a
     * lease longer than a failover, a finished body's result is stored on the new primary instead
     * of expiring into reconciliation. A write that changed nothing tells a
     * record taken over by another attempt (a row with another lease token, attempt or state) from
     * a record that is not
     * there at all ({@link Written#MISSING}).
     */
    static Written fencedWrite(AttemptContext attempt, OperationStatus written, Supplier<Boolean> write) {
        StoreUnavailableException failure = null;
        FinalWriteRetries retries = null;
        for (int i = 0; i < FINAL_WRITE_TRIES || retries.another(); i++) {
            try {
                if (write.get()) {
                    return Written.WRITTEN;
                }
                Optional<StoredOperation> row = attempt.store().find(attempt.policy().name(), attempt.key());
                if (row.isEmpty()) {
                    return Written.MISSING;
                }
                boolean stillOurs = row.get().status() == OperationStatus.IN_PROGRESS && heldBy(row.get(), attempt);
                if (stillOurs && i + 1 < FINAL_WRITE_TRIES) {
                    continue; // a heartbeat wrote the missing record again just before this write: write again
                }
                boolean earlierTryCommitted = failure != null && row.get().status() == written
                        && heldBy(row.get(), attempt);
                return earlierTryCommitted ? Written.WRITTEN : Written.TAKEN_OVER;
            } catch (StoreUnavailableException e) {
                if (attempt.policy().transactional()) {
                    throw e; // the call's connection is its transaction: a repeat, not a retry, can help
                }
                if (failure == null) {
                    failure = e;
                    retries = new FinalWriteRetries(attempt);
                } else if (failure.getSuppressed().length < FINAL_WRITE_TRIES - 1) {
                    failure.addSuppressed(e);
                }
            }
        }
        throw failure;
    }

    /**
     * Whether the row is {@code attempt}'s: its lease token and the attempt on it. A record lost
     * and claimed afresh by another call restarts at lease token 1, so the token alone could be
     * another attempt's.
     */
    private static boolean heldBy(StoredOperation row, AttemptContext attempt) {
        return row.leaseToken() == attempt.leaseToken() && attempt.attemptId().equals(row.attemptId());
    }

    /**
     * An ending that found no record at all: the attempt writes it again as {@code status}
     * ({@link LostRecords}). {@link Written#WRITTEN} when it did, {@link Written#TAKEN_OVER} when
     * another claim made a row of the key meanwhile. The body ran, and its effect may have
     * happened, so a store that fails the re-creation is not "retry later": a repeat would find no
     * record and run the body again. It is {@link NeedsReconciliationException}, not retryable.
     */
    static Written recreateAfterTheEffect(AttemptContext attempt, OperationStatus status, String resultJson,
            String errorJson, String what) {
        try {
            return LostRecords.recreate(attempt, status, resultJson, errorJson) ? Written.WRITTEN
                    : Written.TAKEN_OVER;
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            throw new NeedsReconciliationException(attempt.policy().name(), attempt.key(), what + ", but its"
                    + " operation's record was missing and could not be written again (" + e.happened() + "): no"
                    + " record holds this attempt's outcome, and a repeat with the same key would run the body"
                    + " again", "Do not repeat the call until someone has checked the downstream for this key's"
                    + " effect; then check the store's replication (a failover with asynchronous replication, or a"
                    + " restore from a backup, loses records)", e);
        }
    }

    /** What an attempt's final write did. */
    enum Written {
        /** The record holds the attempt's outcome. */
        WRITTEN,
        /** Another attempt holds the record now (another lease token, attempt or state): the outcome is not stored. */
        TAKEN_OVER,
        /** There is no record of the operation at all (see {@link LostRecords}). */
        MISSING
    }
}
