package io.idempotent.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Passes every event to several listeners. One listener that throws must not cost the others
 * their event or the caller its call: the failure is logged, never rethrown.
 */
final class CompositeMetricsListener implements MetricsListener {

    private static final System.Logger LOG = System.getLogger(CompositeMetricsListener.class.getName());

    private final List<MetricsListener> listeners;

    CompositeMetricsListener(List<MetricsListener> listeners) {
        this.listeners = new CopyOnWriteArrayList<>(listeners);
    }

    /** Adds a listener to a running runtime's events. */
    void add(MetricsListener listener) {
        listeners.add(listener);
    }

    /** Removes a listener added with {@link #add}. */
    void remove(MetricsListener listener) {
        listeners.remove(listener);
    }

    private void each(String tool, Consumer<MetricsListener> event) {
        for (MetricsListener listener : listeners) {
            try {
                event.accept(listener);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "metrics listener " + listener.getClass().getName()
                        + " failed on an event of tool " + tool + ": " + e.getClass().getName());
            }
        }
    }

    @Override
    public void attempt(String tool) {
        each(tool, l -> l.attempt(tool));
    }

    @Override
    public void executed(String tool) {
        each(tool, l -> l.executed(tool));
    }

    @Override
    public void duplicateWaited(String tool, Duration waited, boolean answered) {
        each(tool, l -> l.duplicateWaited(tool, waited, answered));
    }

    @Override
    public void replayed(String tool) {
        each(tool, l -> l.replayed(tool));
    }

    @Override
    public void payloadConflict(String tool) {
        each(tool, l -> l.payloadConflict(tool));
    }

    @Override
    public void inProgress(String tool) {
        each(tool, l -> l.inProgress(tool));
    }

    @Override
    public void awaitingReconciliation(String tool) {
        each(tool, l -> l.awaitingReconciliation(tool));
    }

    @Override
    public void reconciled(String tool, Reconciliation.Outcome outcome) {
        each(tool, l -> l.reconciled(tool, outcome));
    }

    @Override
    public void failedSafe(String tool) {
        each(tool, l -> l.failedSafe(tool));
    }

    @Override
    public void claimLatency(String tool, Duration elapsed) {
        each(tool, l -> l.claimLatency(tool, elapsed));
    }

    @Override
    public void completionLatency(String tool, Duration elapsed) {
        each(tool, l -> l.completionLatency(tool, elapsed));
    }

    @Override
    public void answered(String tool, String key, CallOutcome outcome) {
        CallAnswers.note(tool, key, outcome); // every runtime's answers, for the adapters that report them
        each(tool, l -> l.answered(tool, key, outcome));
    }

    @Override
    public void approvalRequested(String tool) {
        each(tool, l -> l.approvalRequested(tool));
    }

    @Override
    public void approvalGranted(String tool) {
        each(tool, l -> l.approvalGranted(tool));
    }

    @Override
    public void approvalDenied(String tool) {
        each(tool, l -> l.approvalDenied(tool));
    }

    @Override
    public void approvalExpired(String tool) {
        each(tool, l -> l.approvalExpired(tool));
    }

    @Override
    public void attemptLogRowRefused(String tool) {
        each(tool, l -> l.attemptLogRowRefused(tool));
    }
}
