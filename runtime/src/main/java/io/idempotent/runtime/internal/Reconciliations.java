package io.idempotent.runtime.internal;

import static io.idempotent.runtime.internal.StoreCalls.withKey;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Reconciler;
import io.idempotent.runtime.Reconciliation;
import io.idempotent.runtime.ResultNotReplayableException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A call that finds its operation needing reconciliation: the tool's reconciler is asked, on a
 * thread of its own and within the reconciler timeout (no answer, null, a throw or an interrupt
 * count as UNKNOWN); APPLIED settles the operation with the reconciler's result and replays it,
 * NOT_APPLIED releases it to be run again; UNKNOWN re-sends the body only where the downstream
 * still deduplicates the key (Retry.UNCERTAIN with a downstream key, within downstreamRetention),
 * and otherwise answers that a person must settle it. A reconciler's own words reach the attempt
 * log only.
 */
final class Reconciliations {

    private static final System.Logger LOG = System.getLogger(AttemptLogEntries.ENGINE_LOGGER);

    private final ResultCodec results;
    private final MetricsListener metrics;
    private final Duration reconcilerTimeout;
    private final OperationRecords records;
    private final AttemptLogEntries attemptLog;
    private final AttemptStarts starts;
    private final ExecutorService reconcilers = Executors.newCachedThreadPool(
            DaemonThreads.named("idempotent-reconciler"));

    /** Reconciliations whose reconcilers must answer within {@code reconcilerTimeout}. */
    Reconciliations(ResultCodec results, MetricsListener metrics, Duration reconcilerTimeout, OperationRecords records,
            AttemptLogEntries attemptLog, AttemptStarts starts) {
        this.results = results;
        this.metrics = metrics;
        this.reconcilerTimeout = reconcilerTimeout;
        this.records = records;
        this.attemptLog = attemptLog;
        this.starts = starts;
    }

    Invocation reconcile(Call call, StoredOperation op) {
        ToolPolicy policy = call.policy();
        String tool = policy.name();
        Asked asked = askReconciler(call, op);
        Reconciliation<?> answer = asked.answer();
        // What messages and logs may say; the answer's reason (a reconciler's own words) is
        // written only to the attempt log.
        String said = asked.said();
        boolean appliedButUnstorable = false;
        switch (answer.outcome()) {
            case APPLIED -> {
                String json;
                try {
                    json = results.writeReplayable(tool, call.key(), answer.result(), call.resultType());
                } catch (ResultNotReplayableException e) {
                    // The effect happened, by the reconciler's word: running the body again would
                    // repeat it, so this is for a person, whatever the retry policy says.
                    answer = Reconciliation.unknown(policy.reconcilerName() + " answered APPLIED, but "
                            + e.happened());
                    said = answer.reason();
                    appliedButUnstorable = true;
                    break;
                }
                if (withKey(tool, call.key(), () -> call.store().settleApplied(tool, call.key(), op.leaseToken(), json)
                        .applied())) {
                    attemptLog.answer(call, op, AttemptOutcome.RECONCILED_APPLIED, answer.reason());
                    return new Invocation.Replay(results.read(tool, call.key(), json, call.resultType()));
                }
                return null;
            }
            case NOT_APPLIED -> {
                if (withKey(tool, call.key(), () -> call.store().settleNotApplied(tool, call.key(), op.leaseToken(),
                        null).applied())) {
                    attemptLog.answer(call, op, AttemptOutcome.RECONCILED_NOT_APPLIED, answer.reason());
                }
                return null;
            }
            case UNKNOWN -> {
                // handled below
            }
        }
        // A body that returned a result which cannot be stored ran to its end: re-sending it would
        // only repeat that, so it is for a person (or a reconciler's APPLIED) too.
        boolean returnedUnstorable = ResultNotReplayableException.class.getName()
                .equals(results.errorType(op.errorJson()));
        if (!appliedButUnstorable && !returnedUnstorable && policy.retry() == Retry.UNCERTAIN
                && policy.downstreamKey()) {
            // The downstream deduplicates this key for downstreamRetention, so running the body
            // again with the same key cannot add a second effect while it still remembers it.
            Duration retention = policy.downstreamRetention().orElse(Duration.ZERO);
            Invocation resent = starts.takeOver(call, op, false, false, retention);
            if (resent != null || changed(call, op)) {
                return resent;
            }
            answer = Reconciliation.unknown("the operation was first claimed more than downstreamRetention ("
                    + retention + ") ago, so the downstream may have forgotten the key; it is not re-sent");
            said = answer.reason();
        }
        attemptLog.answer(call, op, AttemptOutcome.RECONCILED_UNKNOWN, answer.reason());
        // No cause: a reconciler's exception carries its downstream's words, and a cause's
        // message reaches every log and model that prints this exception.
        throw new NeedsReconciliationException(tool, call.key(), "the effect may or may not have happened (status"
                + " needs_reconciliation: " + said + ")", whereTheReasonIs(tool, call.key()) + ". "
                + NeedsReconciliationException.ADVICE, null);
    }

    /** Where an operator reads a reconciler's reason, which no message or log line carries. */
    private static String whereTheReasonIs(String tool, String key) {
        return "The attempt log holds the reconciler's reason (the command line's show " + tool + " " + key
                + ", the web console, or Operations.find)";
    }

    /** Whether the row is no longer as {@code op} observed it. */
    private static boolean changed(Call call, StoredOperation op) {
        return withKey(call.policy().name(), call.key(), () -> call.store().find(call.policy().name(), call.key()))
                .map(now -> now.status() != op.status() || now.leaseToken() != op.leaseToken())
                .orElse(true);
    }

    /**
     * A reconciler's answer (its reason, the reconciler's own words, goes to the attempt log
     * only), what messages and log lines may say of it instead ({@code said}: the reconciler's
     * name, the answer, a thrown exception's class), and whether it failed to answer.
     */
    private record Asked(Reconciliation<?> answer, String said, boolean failed) {

        /** An answer the runtime gave itself: its reason is the runtime's words, safe to say. */
        static Asked own(Reconciliation<?> answer, boolean failed) {
            return new Asked(answer, answer.reason(), failed);
        }
    }

    private Asked askReconciler(Call call, StoredOperation op) {
        ToolPolicy policy = call.policy();
        Optional<Supplier<? extends Reconciler<?>>> factory = policy.reconciler();
        if (factory.isEmpty()) {
            return Asked.own(Reconciliation.unknown("no reconciler declared"), false);
        }
        OperationRecord record = records.record(call.store(), op);
        java.util.concurrent.Callable<Reconciliation<?>> ask = () -> factory.get().get().reconcile(record);
        Future<Reconciliation<?>> asking = reconcilers.submit(ask);
        String name = policy.reconcilerName();
        Asked asked;
        try {
            Reconciliation<?> answer = asking.get(reconcilerTimeout.toNanos(), TimeUnit.NANOSECONDS);
            asked = answer == null ? Asked.own(Reconciliation.unknown(name + " returned null"), true)
                    : new Asked(answer, name + " answered " + answer.outcome(), false);
        } catch (TimeoutException e) {
            asking.cancel(true);
            asked = Asked.own(Reconciliation.unknown(name + " did not answer within " + reconcilerTimeout), true);
        } catch (ExecutionException e) {
            Throwable thrown = e.getCause();
            // The exception's text (often a downstream's error body) is for the attempt log only.
            asked = new Asked(Reconciliation.unknown(name + " failed: " + thrown), name + " threw "
                    + thrown.getClass().getName(), true);
        } catch (InterruptedException e) {
            asking.cancel(true);
            Thread.currentThread().interrupt();
            asked = Asked.own(Reconciliation.unknown("interrupted while " + name + " was asked"), true);
        }
        if (asked.failed()) {
            // No throwable: its message (and its causes') would carry the reconciler's text.
            LOG.log(Level.WARNING, "tool " + policy.name() + ", key " + call.key() + ": " + asked.said() + "; the"
                    + " operation stays needs_reconciliation. " + whereTheReasonIs(policy.name(), call.key()));
        }
        metrics.reconciled(policy.name(), asked.answer().outcome());
        return asked;
    }

    /** Stops the reconcilers' threads, interrupting any still asked. */
    void close() {
        reconcilers.shutdownNow();
    }
}
