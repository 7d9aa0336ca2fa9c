package io.idempotent.runtime.internal;

import static io.idempotent.runtime.internal.AttemptLogEntries.endAttempt;
import static io.idempotent.runtime.internal.FencedWrites.fencedWrite;
import static io.idempotent.runtime.internal.FencedWrites.recreateAfterTheEffect;
import static io.idempotent.runtime.internal.StoreCalls.withKey;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.LeaseLostException;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.ResultNotReplayableException;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.FencedWrites.Written;
import io.idempotent.runtime.internal.store.AttemptEnd;
import java.time.Duration;

/**
 * The end of an attempt whose body returned: its result is checked as a settlement is (storable,
 * and readable back into the return type), then stored by the fenced completion; a record found
 * missing is written again, a lease lost to another attempt is the caller's
 * {@link LeaseLostException}, and a result that cannot be stored leaves the operation awaiting
 * reconciliation (a transactional call's is rolled back instead).
 */
final class Completions {

    private final ResultCodec results;
    private final MetricsListener metrics;

    /** Completions that store results with {@code results} and report to {@code metrics}. */
    Completions(ResultCodec results, MetricsListener metrics) {
        this.results = results;
        this.metrics = metrics;
    }

    Object completed(AttemptContext attempt, Object result) {
        ToolPolicy policy = attempt.policy();
        // Checked as a settlement is: a result stored now but unreadable later would leave every
        // duplicate without an answer, and one that cannot be stored at all, without a record.
        ResultCodec.Checked checked = results.writeChecked(result, attempt.resultType());
        if (checked.problem() != null) {
            if (policy.transactional()) {
                // The call's transaction is rolled back with this: nothing happened, nothing awaits reconciliation.
                throw new ResultNotReplayableException(policy.name(), attempt.key(), "the body returned, but its result "
                        + checked.problem() + "; the call's transaction was rolled back, so nothing of it was"
                        + " committed and a repeat runs the body again", "Make the return type storable as JSON (no"
                        + " cycles, getters that do not throw, @JsonTypeInfo on an interface or abstract type, a"
                        + " creator: a record or @JsonCreator)", null);
            }
            throw notReplayable(attempt, checked.problem());
        }
        String json = checked.json();
        long sent = System.nanoTime();
        Written written = withKey(policy.name(), attempt.key(), () -> storeCompletion(attempt, json));
        metrics.completionLatency(policy.name(), Duration.ofNanos(System.nanoTime() - sent));
        if (written == Written.MISSING) {
            written = recreateAfterTheEffect(attempt, OperationStatus.COMPLETED, json, null, "the body returned");
        }
        if (written == Written.TAKEN_OVER) {
            endAttempt(attempt, AttemptOutcome.LEASE_LOST, "the body returned, but the lease had been taken over;"
                    + " the result was not stored");
            throw new LeaseLostException(policy.name(), attempt.key(), "attempt " + attempt.attempt() + " finished"
                    + " after it lost its lease; its result was not stored");
        }
        return result;
    }

    private static Written storeCompletion(AttemptContext attempt, String json) {
        return fencedWrite(attempt, OperationStatus.COMPLETED, () -> attempt.store().complete(attempt.policy().name(),
                attempt.key(), attempt.leaseToken(), attempt.attemptId(), json, new AttemptEnd(attempt.downstreamId(),
                        null, attempt.messages())).applied());
    }

    /**
     * The body returned, but its result cannot be stored and read back: its effect happened (or
     * may have), and no duplicate could be answered, so the operation awaits reconciliation,
     * whatever the retry policy says, and the caller learns it instead of a result that no retry
     * would get again. The record's error names the tool, key and types, never the value.
     */
    private ResultNotReplayableException notReplayable(AttemptContext attempt, String problem) {
        ToolPolicy policy = attempt.policy();
        ResultNotReplayableException refused = new ResultNotReplayableException(policy.name(), attempt.key(),
                "the body returned, but its result " + problem + ". Its effect may have happened, so the operation"
                        + " awaits reconciliation (status needs_reconciliation) and a retry does not run the body"
                        + " again", "Make the return type storable as JSON (no cycles, getters that do not throw,"
                        + " @JsonTypeInfo on an interface or abstract type, a creator: a record or @JsonCreator),"
                        + " then settle the operation with Operations.settleApplied or Operations.settleNotApplied"
                        + " (Operations.find shows its error)", null);
        try {
            String error = results.error(refused);
            Written written = fencedWrite(attempt, OperationStatus.NEEDS_RECONCILIATION, () -> attempt.store()
                    .fail(policy.name(), attempt.key(), attempt.leaseToken(), attempt.attemptId(), false, error,
                            new AttemptEnd(attempt.downstreamId(), "result not replayable")).applied());
            if (written == Written.MISSING) {
                written = recreateAfterTheEffect(attempt, OperationStatus.NEEDS_RECONCILIATION, null, error,
                        "the body returned");
            }
            if (written == Written.WRITTEN) {
                metrics.awaitingReconciliation(policy.name());
            } else {
                endAttempt(attempt, AttemptOutcome.LEASE_LOST, "the body returned an unstorable result after the"
                        + " lease had been taken over");
                refused.addSuppressed(new LeaseLostException(policy.name(), attempt.key(), "attempt "
                        + attempt.attempt() + " had lost its lease; the record was not changed"));
            }
        } catch (StoreUnavailableException | StoreConfigurationException storeDown) {
            // The lease expires into reconciliation all the same: the effect may have begun.
            refused.addSuppressed(storeDown);
        } catch (NeedsReconciliationException unrecorded) {
            refused.addSuppressed(unrecorded);
        }
        return refused;
    }
}
