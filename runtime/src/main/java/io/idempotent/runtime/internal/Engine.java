package io.idempotent.runtime.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.InvalidOperationKeyException;
import io.idempotent.runtime.LeaseLostException;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationFailedException;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.Reconciler;
import io.idempotent.runtime.Reconciliation;
import io.idempotent.runtime.ResultNotReplayableException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.PayloadCodec.CanonicalPayload;
import io.idempotent.runtime.internal.store.AttemptEnd;
import io.idempotent.runtime.internal.store.AttemptRow;
import io.idempotent.runtime.internal.store.ClaimRequest;
import io.idempotent.runtime.internal.store.ClaimResult;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.StoredOperation;
import io.idempotent.runtime.internal.store.Takeover;
import io.idempotent.runtime.internal.store.Transition;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The tool protocol: claim the key, then execute, replay, wait, reject or reconcile; after the
 * body, complete or classify the failure. Every decision about an existing row is made on one
 * consistent read of it and carried out by one conditional statement; a lost race re-reads.
 */
public final class Engine implements AutoCloseable {

    /** How often one call re-reads a row that changed under it before it gives up. */
    private static final int MAX_ROUNDS = 16;
    /**
     * Tries of an attempt's final write. Each waits for a connection up to the store's connect
     * timeout, which is what rides out a restarted server or an embedded store changing hands.
     */
    private static final int FINAL_WRITE_TRIES = 3;

    private final StoreRegistry stores;
    private final PayloadCodec payloads;
    private final ResultCodec results;
    private final MetricsListener metrics;
    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat();

    /** An engine over the given stores, codecs and metrics. */
    public Engine(StoreRegistry stores, PayloadCodec payloads, ResultCodec results, MetricsListener metrics) {
        this.stores = stores;
        this.payloads = payloads;
        this.results = results;
        this.metrics = metrics;
    }

    /** The codec of stored results (for operators settling by hand). */
    public ResultCodec results() {
        return results;
    }

    /** The stores. */
    public StoreRegistry stores() {
        return stores;
    }

    /**
     * Decides one call: claims {@code key} for {@code policy}'s tool and returns a replay or an
     * execution; throws when the call must not run.
     */
    public Invocation begin(ToolPolicy policy, String key, Map<String, ?> payload, Type resultType) {
        String tool = policy.name();
        metrics.attempt(tool);
        String problem = OperationKeys.problem(key);
        if (problem != null) {
            throw new InvalidOperationKeyException(tool, null, "tool " + tool + ": the operation key " + problem
                    + "; nothing was claimed");
        }
        OperationStore store = stores.get(policy.store(), tool);
        CanonicalPayload canonical = payloads.encode(tool, key, payload);
        String attemptId = UUID.randomUUID().toString();
        boolean effectAtStart = policy.effectBoundary() == EffectBoundary.BODY_START;
        ClaimRequest request = new ClaimRequest(attemptId, key, tool, canonical.sha256(), canonical.json(), policy.lease(),
                policy.retention(), effectAtStart);
        Call call = new Call(store, policy, key, canonical.sha256(), attemptId, resultType);

        for (int round = 0; round < MAX_ROUNDS; round++) {
            ClaimResult claim;
            try {
                claim = store.claim(request);
            } catch (StoreUnavailableException e) {
                throw new StoreUnavailableException(tool, key, "tool " + tool + ", key " + key + ": " + e.getMessage()
                        + "; nothing was claimed and the body did not run", e.getCause());
            }
            if (claim instanceof ClaimResult.Inserted inserted) {
                return execute(call, inserted.leaseToken(), inserted.attempts());
            }
            StoredOperation op = ((ClaimResult.Existing) claim).operation();
            Invocation decided = decide(call, op);
            if (decided != null) {
                return decided;
            }
        }
        metrics.inProgress(tool);
        throw new OperationInProgressException(tool, key, "tool " + tool + ": the operation " + key + " changed "
                + MAX_ROUNDS + " times while this call decided; other attempts are working on it. Retry later");
    }

    /** One decision on one read of the row; null means "the row changed: read it again". */
    private Invocation decide(Call call, StoredOperation op) {
        String tool = call.policy.name();
        if (!op.payloadHash().equals(call.payloadHash)) {
            answer(call, op, AttemptOutcome.PAYLOAD_CONFLICT, "payload hash " + call.payloadHash + " differs from the"
                    + " stored " + op.payloadHash());
            metrics.payloadConflict(tool);
            throw new PayloadConflictException(tool, call.key, "tool " + tool + ": the operation key " + call.key
                    + " was already used with a different payload (stored payload " + op.payloadJson() + "). A"
                    + " changed argument needs a new operation key; this call is rejected and not retried");
        }
        return switch (op.status()) {
            case COMPLETED -> replay(call, op);
            case IN_PROGRESS -> inProgress(call, op);
            case FAILED_SAFE -> failedSafe(call, op);
            case NEEDS_RECONCILIATION -> reconcile(call, op);
        };
    }

    private Invocation replay(Call call, StoredOperation op) {
        Object value;
        try {
            value = results.read(call.policy.name(), call.key, op.resultJson(), call.resultType);
        } catch (ResultNotReplayableException e) {
            answer(call, op, AttemptOutcome.NOT_REPLAYABLE, e.getMessage());
            throw e;
        }
        answer(call, op, AttemptOutcome.REPLAYED, null);
        metrics.replayed(call.policy.name());
        return new Invocation.Replay(value);
    }

    private Invocation inProgress(Call call, StoredOperation op) {
        String tool = call.policy.name();
        if (!op.leaseExpired()) {
            answer(call, op, AttemptOutcome.IN_PROGRESS, "lease held until " + op.leaseUntil());
            metrics.inProgress(tool);
            throw new OperationInProgressException(tool, call.key, "tool " + tool + ": another attempt holds the"
                    + " lease on " + call.key + " until " + op.leaseUntil() + "; wait and retry with the same key,"
                    + " do not start another worker");
        }
        if (!op.effectStarted() && call.policy.retry() != Retry.NEVER) {
            // The previous worker died before its effect boundary: provably nothing happened.
            return takeOver(call, op, true, true);
        }
        boolean safe = !op.effectStarted();
        boolean expired = withKey(tool, call.key, () -> call.store.expireLease(tool, call.key, op.leaseToken(), safe,
                results.reason("the lease of attempt " + op.attempts() + " expired " + (safe
                        ? "before its effect boundary" : "after its effect may have begun")
                        + "; its worker is presumed dead")).applied());
        if (expired) {
            answer(call, op, AttemptOutcome.LEASE_EXPIRED, "attempt " + op.attempts() + " died " + (safe
                    ? "before its effect boundary" : "after its effect may have begun: the operation needs"
                    + " reconciliation"));
            if (!safe) {
                metrics.awaitingReconciliation(tool);
            }
        }
        return null;
    }

    private Invocation failedSafe(Call call, StoredOperation op) {
        if (call.policy.retry() == Retry.NEVER && op.releasedBy() == null) {
            String tool = call.policy.name();
            answer(call, op, AttemptOutcome.REFUSED, "Retry.NEVER: the failed operation is not re-run");
            throw new OperationFailedException(tool, call.key, "tool " + tool + ": an earlier attempt of " + call.key
                    + " failed (" + op.errorJson() + ") and Retry.NEVER does not re-run it. Use a new operation"
                    + " key, or have an operator release it");
        }
        return takeOver(call, op, false, false);
    }

    private Invocation reconcile(Call call, StoredOperation op) {
        ToolPolicy policy = call.policy;
        String tool = policy.name();
        Reconciliation<?> answer = askReconciler(call, op);
        switch (answer.outcome()) {
            case APPLIED -> {
                String json;
                try {
                    json = results.write(answer.result());
                } catch (JsonProcessingException e) {
                    answer = Reconciliation.unknown("the reconciler's result cannot be stored as JSON: "
                            + e.getOriginalMessage());
                    break;
                }
                String resultJson = json;
                if (withKey(tool, call.key, () -> call.store.settleApplied(tool, call.key, op.leaseToken(), resultJson)
                        .applied())) {
                    answer(call, op, AttemptOutcome.RECONCILED_APPLIED, answer.reason());
                    return new Invocation.Replay(results.read(tool, call.key, resultJson, call.resultType));
                }
                return null;
            }
            case NOT_APPLIED -> {
                if (withKey(tool, call.key, () -> call.store.settleNotApplied(tool, call.key, op.leaseToken(), null).applied())) {
                    answer(call, op, AttemptOutcome.RECONCILED_NOT_APPLIED, answer.reason());
                }
                return null;
            }
            case UNKNOWN -> {
                // handled below, together with an APPLIED result that could not be stored
            }
        }
        if (policy.retry() == Retry.UNCERTAIN && policy.downstreamKey()) {
            // The downstream deduplicates this key, so running the body again with the same key
            // cannot add a second effect.
            return takeOver(call, op, false, false);
        }
        answer(call, op, AttemptOutcome.RECONCILED_UNKNOWN, answer.reason());
        throw new NeedsReconciliationException(tool, call.key, "tool " + tool + ": the effect of " + call.key
                + " may or may not have happened (" + answer.reason() + "; last error " + op.errorJson() + "). It is"
                + " not retried blindly: check the downstream and settle it with Operations.settleApplied or"
                + " settleNotApplied");
    }

    private Reconciliation<?> askReconciler(Call call, StoredOperation op) {
        Optional<Supplier<? extends Reconciler<?>>> factory = call.policy.reconciler();
        if (factory.isEmpty()) {
            return Reconciliation.unknown("no reconciler declared");
        }
        Reconciliation<?> answer;
        try {
            Reconciler<?> reconciler = factory.get().get();
            answer = reconciler.reconcile(record(call.store, op));
            if (answer == null) {
                answer = Reconciliation.unknown(call.policy.reconcilerName() + " returned null");
            }
        } catch (Exception e) {
            answer = Reconciliation.unknown(call.policy.reconcilerName() + " failed: " + e);
        }
        metrics.reconciled(call.policy.name(), answer.outcome());
        return answer;
    }

    private Invocation takeOver(Call call, StoredOperation op, boolean requireExpired, boolean requireEffectNotStarted) {
        ToolPolicy policy = call.policy;
        Takeover takeover = new Takeover(call.attemptId, call.payloadHash, policy.name(), call.key, op.status(), op.leaseToken(), requireExpired,
                requireEffectNotStarted, policy.lease(), policy.retention(),
                policy.effectBoundary() == EffectBoundary.BODY_START);
        // The store says which lease token and attempt number this attempt now holds.
        if (withKey(policy.name(), call.key, () -> call.store.takeOver(takeover)) instanceof Transition.Applied owned) {
            return execute(call, owned.leaseToken(), owned.attempts());
        }
        return null;
    }

    private Invocation execute(Call call, long leaseToken, int attempt) {
        String tool = call.policy.name();
        AttemptContext context = new AttemptContext(call.store, call.policy, call.key, call.attemptId, attempt,
                leaseToken, call.payloadHash);
        // The claim or take-over wrote the attempt's RUNNING row with it.
        metrics.executed(tool);
        CurrentAttempt.push(context);
        return new Invocation.Execution(this, context, heartbeat.start(context));
    }

    Object completed(AttemptContext attempt, Object result) {
        ToolPolicy policy = attempt.policy();
        OperationStore store = attempt.store();
        String json;
        try {
            json = results.write(result);
        } catch (JsonProcessingException e) {
            // The effect happened but its result cannot be stored: a replay could not answer, so
            // a repeat must be reconciled rather than re-run.
            store.fail(policy.name(), attempt.key(), attempt.leaseToken(), false, results.error(e),
                    new AttemptEnd(attempt.attemptId(), attempt.downstreamId(),
                            "result not serialisable: " + e.getOriginalMessage()));
            metrics.awaitingReconciliation(policy.name());
            return result;
        }
        boolean stored = withKey(policy.name(), attempt.key(), () -> storeCompletion(attempt, json));
        if (!stored) {
            store.endAttempt(policy.name(), attempt.key(), attempt.attemptId(), AttemptOutcome.LEASE_LOST, attempt.downstreamId(),
                    "the body returned, but the lease had been taken over; the result was not stored");
            throw new LeaseLostException(policy.name(), attempt.key(), "tool " + policy.name() + ": attempt "
                    + attempt.attempt() + " of " + attempt.key() + " finished after it lost its lease; its result"
                    + " was not stored. A repeat is answered by the operation's current state");
        }
        return result;
    }

    private static boolean storeCompletion(AttemptContext attempt, String json) {
        return fencedWrite(attempt, OperationStatus.COMPLETED,
                () -> attempt.store().complete(attempt.policy().name(), attempt.key(), attempt.leaseToken(), json,
                        new AttemptEnd(attempt.attemptId(), attempt.downstreamId(), null)).applied());
    }

    /**
     * An attempt's final write (its completion or its failure), tried again when the store fails
     * under it: the outcome is known here and nowhere else, and an unwritten one leaves the
     * operation to expire into reconciliation. Each try is fenced by the lease token, so trying
     * again is safe; a try that finds nothing to change reads the row, because the failed try may
     * have committed before its reply was lost. Returns false when the attempt had lost its lease.
     */
    private static boolean fencedWrite(AttemptContext attempt, OperationStatus written, Supplier<Boolean> write) {
        StoreUnavailableException failure = null;
        for (int i = 0; i < FINAL_WRITE_TRIES; i++) {
            try {
                if (write.get()) {
                    return true;
                }
                return failure != null && attempt.store().find(attempt.policy().name(), attempt.key())
                        .filter(op -> op.status() == written && op.leaseToken() == attempt.leaseToken())
                        .isPresent();
            } catch (StoreUnavailableException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        throw failure;
    }

    void failed(AttemptContext attempt, Throwable failure) {
        ToolPolicy policy = attempt.policy();
        OperationStore store = attempt.store();
        boolean safe = policy.provesNotApplied(failure)
                || (policy.effectBoundary() == EffectBoundary.MARKED && !attempt.effectMarked());
        try {
            String error = results.error(failure);
            if (!fencedWrite(attempt, safe ? OperationStatus.FAILED_SAFE : OperationStatus.NEEDS_RECONCILIATION,
                    () -> store.fail(policy.name(), attempt.key(), attempt.leaseToken(), safe, error,
                            new AttemptEnd(attempt.attemptId(), attempt.downstreamId(), failure.toString())).applied())) {
                store.endAttempt(policy.name(), attempt.key(), attempt.attemptId(), AttemptOutcome.LEASE_LOST, attempt.downstreamId(),
                        "failed after the lease had been taken over: " + failure);
                failure.addSuppressed(new LeaseLostException(policy.name(), attempt.key(), "the failure of attempt "
                        + attempt.attempt() + " was not recorded: the attempt had lost its lease"));
                return;
            }
        } catch (StoreUnavailableException e) {
            // The caller gets the body's own exception; the record keeps its lease until it
            // expires, and then the usual expiry rules apply.
            failure.addSuppressed(e);
            return;
        }
        if (!safe) {
            metrics.awaitingReconciliation(policy.name());
        }
    }

    /** The operator's and reconciler's view of a row. */
    OperationRecord record(OperationStore store, StoredOperation op) {
        JsonNode payload;
        try {
            payload = results.mapper().readTree(op.payloadJson());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the stored payload of " + op.key() + " is not JSON", e);
        }
        return new OperationRecord(op.key(), op.tool(), op.status(), op.payloadHash(), payload, op.downstreamId(),
                op.resultJson(), op.errorJson(), op.attempts(), op.leaseToken(), op.leaseUntil(), op.effectStarted(),
                op.createdAt(), op.updatedAt(), op.expiresAt(), store.attempts(op.tool(), op.key()));
    }

    /** Logs what a call was answered without running the body. */
    private void answer(Call call, StoredOperation op, AttemptOutcome outcome, String detail) {
        withKey(call.policy.name(), call.key, () -> {
            call.store.logAttempt(new AttemptRow(call.attemptId, call.key, call.policy.name(), outcome, 0,
                    call.payloadHash, op.downstreamId(), detail, true, op.readAt()));
            return null;
        });
    }

    /** Runs a store call, naming the tool and key in a store failure. */
    private static <T> T withKey(String tool, String key, Supplier<T> storeCall) {
        try {
            return storeCall.get();
        } catch (StoreUnavailableException e) {
            if (e.operationKey() != null) {
                throw e;
            }
            StoreUnavailableException named = new StoreUnavailableException(tool, key,
                    "tool " + tool + ", key " + key + ": " + e.getMessage(), e.getCause());
            for (Throwable earlier : e.getSuppressed()) {
                named.addSuppressed(earlier);
            }
            throw named;
        }
    }

    @Override
    public void close() {
        heartbeat.close();
        stores.close();
    }

    /** The fixed facts of one call. */
    private record Call(OperationStore store, ToolPolicy policy, String key, String payloadHash, String attemptId,
            Type resultType) {
    }

}
