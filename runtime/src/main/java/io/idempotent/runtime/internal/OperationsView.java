package io.idempotent.runtime.internal;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.OperationCount;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.Operations;
import io.idempotent.runtime.Reconciliation;
import io.idempotent.runtime.ResultNotReplayableException;
import io.idempotent.runtime.internal.store.AttemptRow;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** The operator API over the engine's stores. */
public final class OperationsView implements Operations {

    private final Engine engine;
    private final MetricsListener metrics;

    /** The operator view of {@code engine}. */
    public OperationsView(Engine engine, MetricsListener metrics) {
        this.engine = engine;
        this.metrics = metrics;
    }

    @Override
    public Optional<OperationRecord> find(String store, String tool, String key) {
        OperationStore s = engine.stores().get(store, "operator");
        return s.find(tool, key).map(op -> engine.record(s, op));
    }

    @Override
    public AttemptPage attemptLog(String store, String tool, String key, Set<AttemptOutcome> outcomes, int offset,
            int limit) {
        Objects.requireNonNull(outcomes, "outcomes");
        if (outcomes.isEmpty()) {
            throw new IllegalArgumentException("name at least one outcome of the attempt log to read");
        }
        AttemptPage.checkRange(offset, limit);
        return engine.stores().get(store, "operator").attempts(tool, key, outcomes, offset, limit);
    }

    @Override
    public List<OperationRecord> awaitingReconciliation(String store, String tool, Duration olderThan, int limit) {
        Objects.requireNonNull(olderThan, "olderThan");
        if (olderThan.isNegative() || limit < 1) {
            throw new IllegalArgumentException("olderThan must not be negative and limit must be positive");
        }
        OperationStore s = engine.stores().get(store, "operator");
        return s.awaitingReconciliation(tool, olderThan, limit).stream().map(op -> engine.record(s, op)).toList();
    }

    @Override
    public List<OperationCount> countByToolAndStatus(String store) {
        return engine.stores().get(store, "operator").countByToolAndStatus(null);
    }

    @Override
    public Map<String, Long> countAwaitingReconciliation(String store) {
        Map<String, Long> counts = new TreeMap<>();
        for (OperationCount count : engine.stores().get(store, "operator")
                .countByToolAndStatus(OperationStatus.NEEDS_RECONCILIATION)) {
            counts.put(count.tool(), count.count());
        }
        return counts;
    }

    @Override
    public int countExpired(String store) {
        return engine.stores().get(store, "operator").countExpired();
    }

    @Override
    public List<OperationRecord> inProgress(String store, int limit) {
        OperationStore s = engine.stores().get(store, "operator");
        return s.inProgress(limit).stream().map(op -> engine.record(s, op)).toList();
    }

    @Override
    public void settleApplied(String store, String tool, String key, Object result, String operator) {
        Type resultType = engine.resultType(store, tool).orElseThrow(() -> new IllegalArgumentException("tool "
                + tool + ", key " + key + ": this JVM has not run the tool, so its return type is not known; pass it"
                + " (settleApplied with a resultType), so the result is checked before every duplicate replays it"));
        settleApplied(store, tool, key, result, resultType, operator);
    }

    @Override
    public void settleApplied(String store, String tool, String key, Object result, Type resultType,
            String operator) {
        Objects.requireNonNull(resultType, "resultType");
        Objects.requireNonNull(operator, "operator");
        StoreColumns.requireFits(tool, key, "operator name", "released_by", operator);
        OperationStore s = engine.stores().get(store, "operator");
        StoredOperation op = awaiting(s, tool, key);
        String json;
        try {
            json = engine.results().writeReplayable(tool, key, result, resultType);
        } catch (ResultNotReplayableException e) {
            throw new IllegalArgumentException("tool " + tool + ", key " + key + ": not settled, because "
                    + e.happened() + "; the operation stays needs_reconciliation", e);
        }
        if (!s.settleApplied(tool, key, op.leaseToken(), json).applied()) {
            throw new IllegalStateException("tool " + tool + ": operation " + key + " changed while it was being"
                    + " settled; read it again");
        }
        log(s, op, AttemptOutcome.SETTLED_APPLIED, "settled as applied by " + operator);
        metrics.reconciled(op.tool(), Reconciliation.Outcome.APPLIED);
    }

    @Override
    public void settleNotApplied(String store, String tool, String key, String reason, String operator) {
        Objects.requireNonNull(operator, "operator");
        StoreColumns.requireFits(tool, key, "operator name", "released_by", operator);
        OperationStore s = engine.stores().get(store, "operator");
        StoredOperation op = awaiting(s, tool, key);
        if (!s.settleNotApplied(tool, key, op.leaseToken(), operator).applied()) {
            throw new IllegalStateException("tool " + tool + ": operation " + key + " changed while it was being"
                    + " settled; read it again");
        }
        log(s, op, AttemptOutcome.SETTLED_NOT_APPLIED, "settled as not applied by " + operator + ": " + reason);
        metrics.reconciled(op.tool(), Reconciliation.Outcome.NOT_APPLIED);
    }

    @Override
    public int purgeExpired(String store) {
        OperationStore s = engine.stores().get(store, "operator");
        // A grant that lapsed unused is not purged (it awaits approval again), but its lapse is recorded (issue 48).
        s.expireLapsedGrants("the purge").forEach(metrics::approvalExpired);
        return s.purgeExpired();
    }

    private static StoredOperation awaiting(OperationStore store, String tool, String key) {
        StoredOperation op = store.find(tool, key).orElseThrow(() -> new IllegalStateException("tool " + tool
                + ": no operation " + key));
        if (op.status() != OperationStatus.NEEDS_RECONCILIATION) {
            throw new IllegalStateException("tool " + tool + ": operation " + key + " is " + op.status().column()
                    + ", not needs_reconciliation; only an uncertain operation can be settled");
        }
        return op;
    }

    private static void log(OperationStore store, StoredOperation op, AttemptOutcome outcome, String detail) {
        store.logAttempt(new AttemptRow("operator-" + UUID.randomUUID(), op.key(), op.tool(), outcome, 0,
                op.payloadHash(), op.downstreamId(), detail, null));
    }
}
