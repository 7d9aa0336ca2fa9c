package io.idempotent.runtime;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** A {@link MetricsListener} that counts every event per tool, for tests, examples and dashboards. */
public final class CountingMetrics implements MetricsListener {

    /** The events counted. */
    public enum Event {
        /** See {@link MetricsListener#attempt}. */
        ATTEMPTS,
        /** See {@link MetricsListener#executed}. */
        EXECUTIONS,
        /** See {@link MetricsListener#replayed}. */
        REPLAYS,
        /** See {@link MetricsListener#payloadConflict}. */
        PAYLOAD_CONFLICTS,
        /** See {@link MetricsListener#inProgress}. */
        IN_PROGRESS,
        /** See {@link MetricsListener#awaitingReconciliation}. */
        AWAITING_RECONCILIATION,
        /** See {@link MetricsListener#failedSafe}. */
        FAILED_SAFE,
        /** Reconciled as applied. */
        RECONCILED_APPLIED,
        /** Reconciled as not applied. */
        RECONCILED_NOT_APPLIED,
        /** Reconciliation could not tell. */
        RECONCILED_UNKNOWN,
        /** See {@link MetricsListener#approvalRequested}. */
        APPROVALS_REQUESTED,
        /** See {@link MetricsListener#approvalGranted}. */
        APPROVALS_GRANTED,
        /** See {@link MetricsListener#approvalDenied}. */
        APPROVALS_DENIED,
        /** See {@link MetricsListener#approvalExpired}. */
        APPROVALS_EXPIRED,
        /** See {@link MetricsListener#attemptLogRowRefused}. */
        ATTEMPT_LOG_ROWS_REFUSED,
        /** See {@link MetricsListener#duplicateWaited}: a wait that ended with the original's outcome. */
        DUPLICATE_WAITS_ANSWERED,
        /** See {@link MetricsListener#duplicateWaited}: a wait that ended without it (answered in progress). */
        DUPLICATE_WAITS_TIMED_OUT
    }

    private final Map<String, Map<Event, LongAdder>> counts = new ConcurrentHashMap<>();

    /** Creates empty counters. */
    public CountingMetrics() {
    }

    /** The count of {@code event} for {@code tool}. */
    public long count(String tool, Event event) {
        Map<Event, LongAdder> perTool = counts.get(tool);
        if (perTool == null) {
            return 0;
        }
        synchronized (perTool) {
            LongAdder adder = perTool.get(event);
            return adder == null ? 0 : adder.sum();
        }
    }

    /** The tools that have any count, sorted. */
    public Set<String> tools() {
        return new TreeSet<>(counts.keySet());
    }

    private void add(String tool, Event event) {
        Map<Event, LongAdder> perTool = counts.computeIfAbsent(tool, t -> new EnumMap<>(Event.class));
        synchronized (perTool) {
            perTool.computeIfAbsent(event, e -> new LongAdder()).increment();
        }
    }

    @Override
    public void attempt(String tool) {
        add(tool, Event.ATTEMPTS);
    }

    @Override
    public void executed(String tool) {
        add(tool, Event.EXECUTIONS);
    }

    @Override
    public void duplicateWaited(String tool, java.time.Duration waited, boolean answered) {
        add(tool, answered ? Event.DUPLICATE_WAITS_ANSWERED : Event.DUPLICATE_WAITS_TIMED_OUT);
    }

    @Override
    public void replayed(String tool) {
        add(tool, Event.REPLAYS);
    }

    @Override
    public void payloadConflict(String tool) {
        add(tool, Event.PAYLOAD_CONFLICTS);
    }

    @Override
    public void inProgress(String tool) {
        add(tool, Event.IN_PROGRESS);
    }

    @Override
    public void awaitingReconciliation(String tool) {
        add(tool, Event.AWAITING_RECONCILIATION);
    }

    @Override
    public void failedSafe(String tool) {
        add(tool, Event.FAILED_SAFE);
    }

    @Override
    public void reconciled(String tool, Reconciliation.Outcome outcome) {
        add(tool, switch (outcome) {
            case APPLIED -> Event.RECONCILED_APPLIED;
            case NOT_APPLIED -> Event.RECONCILED_NOT_APPLIED;
            case UNKNOWN -> Event.RECONCILED_UNKNOWN;
        });
    }

    @Override
    public void approvalRequested(String tool) {
        add(tool, Event.APPROVALS_REQUESTED);
    }

    @Override
    public void approvalGranted(String tool) {
        add(tool, Event.APPROVALS_GRANTED);
    }

    @Override
    public void approvalDenied(String tool) {
        add(tool, Event.APPROVALS_DENIED);
    }

    @Override
    public void approvalExpired(String tool) {
        add(tool, Event.APPROVALS_EXPIRED);
    }

    @Override
    public void attemptLogRowRefused(String tool) {
        add(tool, Event.ATTEMPT_LOG_ROWS_REFUSED);
    }
}
