package io.idempotent.runtime.internal;

import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.internal.store.LostRecord;
import java.lang.System.Logger.Level;

/**
 * An operation record that the attempt holding it finds missing: not taken over by another
 * attempt (that leaves a row with another lease token, attempt or state), but gone. The claim
 * committed only on a primary that a failover with asynchronous replication lost, or the store
 * was restored from a backup taken before the claim. Nothing else holds the operation and this
 * attempt knows what happened, so it writes the record again, with its own lease token: completed
 * with the result in hand, failed with the error (safe, or needing reconciliation), or still in
 * progress (at the effect boundary or a heartbeat) so that the attempt's own ending lands on it.
 * A repeat is then answered by that record, instead of claiming afresh and running the body a
 * second time. The attempt is on the record as it always is, so the attempt log has its row.
 * Each re-creation is logged once at WARNING, with the tool and key only.
 */
final class LostRecords {

    /** What the warning asks the operator, since only a lost or restored store loses a record. */
    static final String MISSING = "the record was missing: was the store failed over with asynchronous replication"
            + " or restored from a backup?";

    private static final System.Logger LOG = System.getLogger(LostRecords.class.getName());

    private LostRecords() {
    }

    /**
     * Writes the record of {@code attempt}'s operation again as {@code status} (completed,
     * failed_safe or needs_reconciliation), the attempt ended on it. True when it did; false when
     * a row of the key exists again (another call claimed the key after the record was lost).
     *
     * @throws io.idempotent.runtime.StoreUnavailableException when the store fails
     */
    static boolean recreate(AttemptContext attempt, OperationStatus status, String resultJson, String errorJson) {
        boolean written = write(attempt, status, false, attempt.downstreamId(), resultJson, errorJson,
                "ended as " + status.column());
        int messages = attempt.messages().size();
        if (written && messages > 0) {
            // The record written again carries no outbox rows: say so where the operator looks.
            LOG.log(Level.WARNING, "tool " + attempt.policy().name() + ", key " + attempt.key() + ": the " + messages
                    + " outbox message(s) the body sent were not written with the record written again; check"
                    + " whether their destinations need them (docs/outbox.md)");
        }
        return written;
    }

    /**
     * Writes the record again as in progress, held by {@code attempt} with a full lease, when a
     * write that needs the lease (the effect boundary, a heartbeat) found none. False when a row
     * of the key exists: it was taken over or its lease expired, which is a lost lease.
     */
    static boolean holdAgain(AttemptContext attempt, boolean effectStarted, String downstreamId) {
        if (attempt.store().find(attempt.policy().name(), attempt.key()).isPresent()) {
            return false;
        }
        return write(attempt, OperationStatus.IN_PROGRESS, effectStarted, downstreamId, null, null,
                "still holds it");
    }

    private static boolean write(AttemptContext attempt, OperationStatus status, boolean effectStarted,
            String downstreamId, String resultJson, String errorJson, String what) {
        boolean started = effectStarted || status != OperationStatus.FAILED_SAFE;
        LostRecord record = new LostRecord(attempt.policy().name(), attempt.key(), attempt.payloadHash(),
                attempt.payloadJson(), status, attempt.leaseToken(), attempt.attempt(), attempt.policy().lease(),
                attempt.policy().retention(), attempt.sinceClaim(), started, downstreamId, resultJson, errorJson,
                attempt.attemptId(), "record written again by attempt " + attempt.attempt() + ", which found it"
                        + " missing");
        if (!attempt.store().recreate(record).applied()) {
            return false;
        }
        LOG.log(Level.WARNING, "tool " + attempt.policy().name() + ", key " + attempt.key() + ": " + MISSING
                + " Attempt " + attempt.attempt() + " " + what + " and wrote the record again, so a repeat is"
                + " answered by it instead of running the body again. Check the store's replication; Operations.find"
                + " shows the record");
        return true;
    }
}
