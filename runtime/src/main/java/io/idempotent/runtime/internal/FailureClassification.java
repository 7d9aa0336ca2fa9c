package io.idempotent.runtime.internal;

import static io.idempotent.runtime.internal.AttemptLogEntries.endAttempt;
import static io.idempotent.runtime.internal.FencedWrites.fencedWrite;
import static io.idempotent.runtime.internal.FencedWrites.recreateAfterTheEffect;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.LeaseLostException;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.FencedWrites.Written;
import io.idempotent.runtime.internal.store.AttemptEnd;
import io.idempotent.runtime.internal.store.OperationStore;

/**
 * The end of an attempt whose body threw, or never started: the one classification of a failure,
 * for synchronous and asynchronous bodies alike. Safe to retry (failed_safe) when nothing can have
 * happened: a transactional call rolled back, an exception the tool declares proves it, the body
 * failed before its marked effect boundary, or it never began; else the effect may have happened
 * and the operation awaits reconciliation. The caller always gets the body's own exception, with
 * why no record holds it when none does.
 */
final class FailureClassification {

    private final ResultCodec results;
    private final MetricsListener metrics;

    /** Failures recorded with {@code results}' error form and reported to {@code metrics}. */
    FailureClassification(ResultCodec results, MetricsListener metrics) {
        this.results = results;
        this.metrics = metrics;
    }

    /**
     * Records the body's failure: safe to retry when it proves that nothing happened (an
     * exception in {@code notAppliedOn}) or came before a marked effect boundary, else uncertain.
     * The one classification of a failure, for synchronous bodies and asynchronous ones alike.
     */
    void failed(AttemptContext attempt, Throwable failure) {
        ToolPolicy policy = attempt.policy();
        // A transactional tool's failure rolled its writes back: nothing happened.
        recordFailure(attempt, failure, policy.transactional() || policy.provesNotApplied(failure)
                || (policy.effectBoundary() == EffectBoundary.MARKED && !attempt.effectMarked()));
    }

    /**
     * Records that the attempt ends without its body having been started (an asynchronous call
     * cancelled between its claim and its body): nothing can have happened, whatever the effect
     * boundary, so the claim is released (failed_safe).
     */
    void released(AttemptContext attempt, Throwable why) {
        recordFailure(attempt, why, true);
    }

    private void recordFailure(AttemptContext attempt, Throwable failure, boolean safe) {
        ToolPolicy policy = attempt.policy();
        OperationStore store = attempt.store();
        OperationStatus status = safe ? OperationStatus.FAILED_SAFE : OperationStatus.NEEDS_RECONCILIATION;
        try {
            String error = results.error(failure);
            Written written = fencedWrite(attempt, status, () -> store.fail(policy.name(), attempt.key(),
                    attempt.leaseToken(), attempt.attemptId(), safe, error, new AttemptEnd(attempt.downstreamId(),
                    failure.toString())).applied());
            if (written == Written.MISSING) {
                // Before the effect a re-creation the store fails is harmless: a repeat may run the body.
                written = !safe ? recreateAfterTheEffect(attempt, status, null, error, "the body threw "
                        + failure.getClass().getName()) : LostRecords.recreate(attempt, status, null, error)
                        ? Written.WRITTEN : Written.TAKEN_OVER;
            }
            if (written == Written.TAKEN_OVER) {
                endAttempt(attempt, AttemptOutcome.LEASE_LOST, "failed after the lease had been taken over ("
                        + failure.getClass().getName() + ")");
                failure.addSuppressed(new LeaseLostException(policy.name(), attempt.key(), "the failure of attempt "
                        + attempt.attempt() + " was not recorded: the attempt had lost its lease"));
                return;
            }
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            // The caller gets the body's own exception; the record keeps its lease until it
            // expires, and then the usual expiry rules apply.
            failure.addSuppressed(e);
            return;
        } catch (NeedsReconciliationException unrecorded) {
            // The caller still gets the body's own exception, with why no record holds it.
            failure.addSuppressed(unrecorded);
            return;
        }
        if (safe) {
            metrics.failedSafe(policy.name());
        } else {
            metrics.awaitingReconciliation(policy.name());
        }
    }
}
