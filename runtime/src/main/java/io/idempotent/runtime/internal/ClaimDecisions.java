package io.idempotent.runtime.internal;

import static io.idempotent.runtime.internal.StoreCalls.withKey;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ApprovalDeniedException;
import io.idempotent.runtime.ApprovalPendingException;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationFailedException;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.ResultNotReplayableException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.store.ClaimResult;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.util.Optional;

/**
 * The claim's decision, made on one consistent read of the operation's row and carried out by one
 * conditional statement: a fresh row is run (or awaits approval); a different payload is a
 * conflict; a completed operation is replayed; one in progress is answered so (after a bounded
 * wait for its outcome, when configured) or, its lease expired, taken over before its effect
 * boundary or sent to reconciliation after; a failed-safe one is run again or refused by the retry
 * policy; an approval still pending, granted, lapsed or denied is answered or run accordingly; one
 * needing reconciliation goes to {@link Reconciliations}. A lost race re-reads.
 */
final class ClaimDecisions {

    private final ResultCodec results;
    private final MetricsListener metrics;
    private final AttemptLogEntries attemptLog;
    private final AttemptStarts starts;
    private final Reconciliations reconciliations;
    /** Whether an in-flight duplicate waits for the original's outcome, and how long at most. */
    private volatile DuplicateWaits duplicateWaits = DuplicateWaits.OFF;

    /**
     * Decisions that answer through {@code attemptLog}, run attempts through {@code starts} and
     * reconcile through {@code reconciliations}.
     */
    ClaimDecisions(ResultCodec results, MetricsListener metrics, AttemptLogEntries attemptLog, AttemptStarts starts,
            Reconciliations reconciliations) {
        this.results = results;
        this.metrics = metrics;
        this.attemptLog = attemptLog;
        this.starts = starts;
        this.reconciliations = reconciliations;
    }

    /** How an in-flight duplicate waits from now on ({@link DuplicateWaits#OFF}: it does not). */
    void duplicateWaits(DuplicateWaits waits) {
        this.duplicateWaits = waits;
    }

    /**
     * The decision on a claim's answer: a row the claim inserted is this call's to run (or, for a
     * tool that needs approval, awaits a person); an existing row is decided on the read the claim
     * returned. Null means "the row changed: read it again".
     */
    Invocation decide(Call call, ClaimResult claim, long sent) {
        ToolPolicy policy = call.policy();
        String tool = policy.name();
        String key = call.key();
        if (claim instanceof ClaimResult.Inserted inserted) {
            if (policy.approvalRequired()) {
                metrics.approvalRequested(tool);
                throw awaitingApproval(tool, key, "the operation is recorded as awaiting a person's approval");
            }
            return starts.execute(call, inserted.leaseToken(), inserted.attempts(), sent);
        }
        StoredOperation op = ((ClaimResult.Existing) claim).operation();
        return decide(call, op);
    }

    /** One decision on one read of the row; null means "the row changed: read it again". */
    private Invocation decide(Call call, StoredOperation op) {
        String tool = call.policy().name();
        if (!op.payloadHash().equals(call.payloadHash())) {
            attemptLog.answer(call, op, AttemptOutcome.PAYLOAD_CONFLICT, "payload hash " + call.payloadHash()
                    + " differs from the stored " + op.payloadHash());
            metrics.payloadConflict(tool);
            // Neither hash is said: a low-entropy payload (an amount, an account id) is guessed
            // offline from its hash. The attempt log keeps both, for the operator.
            throw new PayloadConflictException(tool, call.key(), "the operation key was already used with a different"
                    + " payload (the payload hashes differ)");
        }
        return switch (op.status()) {
            case COMPLETED -> replay(call, op);
            case IN_PROGRESS -> inProgress(call, op);
            case FAILED_SAFE -> failedSafe(call, op);
            case NEEDS_RECONCILIATION -> reconciliations.reconcile(call, op);
            case AWAITING_APPROVAL -> {
                attemptLog.answer(call, op, AttemptOutcome.AWAITING_APPROVAL, null);
                throw awaitingApproval(tool, call.key(), "the operation still awaits a person's approval (status"
                        + " awaiting_approval)");
            }
            case APPROVED -> approved(call, op);
            case DENIED -> {
                attemptLog.answer(call, op, AttemptOutcome.DENIED, null);
                throw new ApprovalDeniedException(tool, call.key(), "an operator denied the operation (status denied);"
                        + " the body did not run and will not run under this key");
            }
        };
    }

    /**
     * A granted operation: the call takes it over and runs the body, while the grant is valid (the
     * record's lease end); a grant that lapsed unused puts the operation back in the queue, and
     * the call reads it again (it then awaits approval).
     */
    private Invocation approved(Call call, StoredOperation op) {
        String tool = call.policy().name();
        if (!op.leaseExpired()) {
            return starts.takeOver(call, op, false, false, null);
        }
        // The store writes the APPROVAL_EXPIRED row with the change, under this call's attempt id.
        if (withKey(tool, call.key(), () -> call.store().expireApproval(tool, call.key(), op.leaseToken(),
                call.attemptId())).applied()) {
            metrics.approvalExpired(tool);
        }
        return null;
    }

    private static ApprovalPendingException awaitingApproval(String tool, String key, String happened) {
        return new ApprovalPendingException(tool, key, happened + "; the body did not run");
    }

    private Invocation replay(Call call, StoredOperation op) {
        Object value;
        try {
            value = results.read(call.policy().name(), call.key(), op.resultJson(), call.resultType());
        } catch (ResultNotReplayableException e) {
            attemptLog.answer(call, op, AttemptOutcome.NOT_REPLAYABLE, e.getMessage());
            throw e;
        }
        attemptLog.answer(call, op, AttemptOutcome.REPLAYED, null);
        metrics.replayed(call.policy().name());
        return new Invocation.Replay(value);
    }

    private Invocation inProgress(Call call, StoredOperation op) {
        String tool = call.policy().name();
        if (!op.leaseExpired()) {
            Optional<StoredOperation> ended = duplicateWaits.awaitEnd(call.store(), op, metrics);
            if (ended.isPresent()) {
                return waitedFor(call, ended.get());
            }
            attemptLog.answer(call, op, AttemptOutcome.IN_PROGRESS, "lease held until " + op.leaseUntil());
            metrics.inProgress(tool);
            throw new OperationInProgressException(tool, call.key(), "another attempt holds the lease (status"
                    + " in_progress, until " + op.leaseUntil() + ")");
        }
        if (!op.effectStarted() && call.policy().retry() != Retry.NEVER) {
            // The previous worker died before its effect boundary: provably nothing happened.
            return starts.takeOver(call, op, true, true, null);
        }
        boolean safe = !op.effectStarted();
        boolean expired = withKey(tool, call.key(), () -> call.store().expireLease(tool, call.key(), op.leaseToken(),
                safe, results.reason("the lease of attempt " + op.attempts() + " expired " + (safe
                        ? "before its effect boundary" : "after its effect may have begun")
                        + "; its worker is presumed dead")).applied());
        if (expired) {
            attemptLog.answer(call, op, AttemptOutcome.LEASE_EXPIRED, "attempt " + op.attempts() + " died " + (safe
                    ? "before its effect boundary" : "after its effect may have begun: the operation needs"
                    + " reconciliation"));
            if (!safe) {
                metrics.awaitingReconciliation(tool);
            }
        }
        return null;
    }

    /**
     * The answer of a duplicate that waited for the attempt in progress: that attempt's result,
     * or its classified failure; never a run of the body (a failed-safe operation is run again by
     * the next call, not by one that came while it ran).
     */
    private Invocation waitedFor(Call call, StoredOperation op) {
        String tool = call.policy().name();
        return switch (op.status()) {
            case COMPLETED -> replay(call, op);
            case FAILED_SAFE -> {
                // Retryable where a fresh call would re-run it: the repeat claims the row and runs.
                boolean rerun = rerunsFailedSafe(call.policy(), op);
                attemptLog.answer(call, op, AttemptOutcome.REFUSED, "waited for attempt " + op.attempts()
                        + ", which failed safe");
                throw new OperationFailedException(tool, call.key(), "this call waited for the attempt in progress,"
                        + " which failed before its effect could begin (status failed_safe); the body did not run"
                        + " for this call", rerun);
            }
            default -> {
                attemptLog.answer(call, op, AttemptOutcome.REFUSED, "waited for attempt " + op.attempts()
                        + ", whose outcome is unknown");
                throw new NeedsReconciliationException(tool, call.key(), "this call waited for the attempt in"
                        + " progress, which failed after its effect may have begun (status " + op.status().name()
                        .toLowerCase(java.util.Locale.ROOT) + "); the body did not run for this call");
            }
        };
    }

    /** Whether a call that finds {@code op} failed safe runs it again (the one rule, for fresh calls and waiters). */
    private static boolean rerunsFailedSafe(ToolPolicy policy, StoredOperation op) {
        return policy.retry() != Retry.NEVER || op.releasedBy() != null;
    }

    private Invocation failedSafe(Call call, StoredOperation op) {
        if (!rerunsFailedSafe(call.policy(), op)) {
            String tool = call.policy().name();
            attemptLog.answer(call, op, AttemptOutcome.REFUSED, "Retry.NEVER: the failed operation is not re-run");
            throw new OperationFailedException(tool, call.key(), "an earlier attempt failed before its effect could"
                    + " begin (status failed_safe), and Retry.NEVER does not re-run it");
        }
        return starts.takeOver(call, op, false, false, null);
    }
}
