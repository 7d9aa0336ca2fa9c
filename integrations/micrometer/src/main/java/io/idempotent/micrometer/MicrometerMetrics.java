package io.idempotent.micrometer;

import io.idempotent.runtime.Approvals;
import io.idempotent.runtime.CallOutcome;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.Operations;
import io.idempotent.runtime.Reconciliation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The runtime's events as Micrometer meters, named and tagged by Micrometer's conventions:
 * <ul>
 *   <li>{@value #ATTEMPTS} (counter, tag {@code tool}): every call that reached the runtime;
 *   <li>{@value #OUTCOMES} (counter, tags {@code tool}, {@code outcome}): {@code executed} (the
 *       body ran), {@code replayed}, {@code payload_conflict}, {@code in_progress},
 *       {@code failed_safe}, {@code awaiting_reconciliation} (an operation became uncertain),
 *       {@code reconciled_applied}, {@code reconciled_not_applied}, {@code reconciled_unknown},
 *       and for the calls of approval tools {@code awaiting_approval} (answered that the operation
 *       waits for a person, the first call included) and {@code approval_denied} (answered with
 *       an operator's denial);
 *   <li>{@value #APPROVALS} (counter, tags {@code tool}, {@code event}): {@code requested} (a
 *       call recorded a new operation as awaiting approval), {@code granted} and {@code denied}
 *       (an operator's decision made through this runtime's {@link Approvals}; {@code idem approve},
 *       {@code idem deny} and the console decide in their own process and are not counted here:
 *       the gauge shows their effect),
 *       {@code expired} (this runtime recorded a grant that expired unused: a call, a decision,
 *       the approval queue's read or the purge found it; pending again);
 *   <li>{@value #STORE_LATENCY} (timer, tags {@code tool}, {@code operation} = {@code claim} or
 *       {@code completion}): the store's share of a call;
 *   <li>{@value #AWAITING} (gauge, tags {@code store}, {@code tool}): operations waiting for a
 *       person to reconcile them, read from the store every refresh interval
 *       ({@link #watchQueue}), never per call;
 *   <li>{@value #AWAITING_APPROVAL} (gauge, tags {@code store}, {@code tool}): operations waiting
 *       for a person's approval, read the same way ({@link #watchApprovals}), whichever process
 *       asked or decided;
 *   <li>{@value #ATTEMPT_LOG_REFUSED} (counter, tag {@code tool}): answers whose attempt-log row the
 *       database refused for good, logged by tool and key and not written;
 *   <li>{@value #DUPLICATE_WAITS} (timer, tags {@code tool}, {@code ended} = {@code answered} or
 *       {@code in_progress}): how long duplicates waited for the original's outcome
 *       ({@code duplicate.wait.ms}), and whether they got it.
 * </ul>
 * Operation keys are never tags: they are unbounded and may carry business identifiers.
 */
public final class MicrometerMetrics implements MetricsListener, AutoCloseable {

    /** Calls that reached the runtime, per tool. */
    public static final String ATTEMPTS = "idempotent.tool.attempts";
    /** What happened to calls and operations, per tool and outcome. */
    public static final String OUTCOMES = "idempotent.tool.outcomes";
    /** The store's latency per tool and operation. */
    public static final String STORE_LATENCY = "idempotent.store.latency";
    /** Operations awaiting reconciliation, per store and tool. */
    public static final String AWAITING = "idempotent.operations.awaiting.reconciliation";
    /** Approval requests and decisions, per tool and event. */
    public static final String APPROVALS = "idempotent.tool.approvals";
    /** Operations awaiting approval, per store and tool. */
    public static final String AWAITING_APPROVAL = "idempotent.operations.awaiting.approval";
    /** Attempt-log rows the database refused for good (not written), per tool. */
    public static final String ATTEMPT_LOG_REFUSED = "idempotent.attempt_log.refused";

    /** Waits of in-flight duplicates for the original's outcome, per tool and how they ended. */
    public static final String DUPLICATE_WAITS = "idempotent.tool.duplicate.waits";

    private static final System.Logger LOG = System.getLogger(MicrometerMetrics.class.getName());

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final List<ScheduledExecutorService> watchers = new ArrayList<>();

    /** Meters in {@code registry}. */
    public MicrometerMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Publishes {@value #AWAITING} for {@code store}, read through {@code operations} now and then
     * every {@code refresh} on a daemon thread. A read that fails keeps the last values and is
     * logged. Closing this object stops the reads.
     */
    public synchronized MicrometerMetrics watchQueue(Operations operations, String store, Duration refresh) {
        Objects.requireNonNull(operations, "operations");
        return watch(AWAITING, "Operations whose effect may or may not have happened, waiting for a person",
                "reconciliation", store, refresh, operations::countAwaitingReconciliation);
    }

    /**
     * Publishes {@value #AWAITING_APPROVAL} for {@code store}, read through {@code approvals}
     * ({@link Approvals#countPending}) now and then every {@code refresh} on a daemon thread, as
     * {@link #watchQueue} does.
     */
    public synchronized MicrometerMetrics watchApprovals(Approvals approvals, String store, Duration refresh) {
        Objects.requireNonNull(approvals, "approvals");
        return watch(AWAITING_APPROVAL, "Operations waiting for a person's approval; their tool bodies have not run",
                "approval", store, refresh, approvals::countPending);
    }

    private MicrometerMetrics watch(String name, String description, String queue, String store, Duration refresh,
            Function<String, Map<String, Long>> count) {
        Objects.requireNonNull(store, "store");
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException("refresh must be positive, was " + refresh);
        }
        MultiGauge gauge = MultiGauge.builder(name).tag("store", store).description(description).register(registry);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "idempotent-metrics-" + queue + "-" + store);
            t.setDaemon(true);
            return t;
        });
        watcher.scheduleWithFixedDelay(() -> refresh(name, queue, store, count, gauge, seen), 0, refresh.toMillis(),
                TimeUnit.MILLISECONDS);
        watchers.add(watcher);
        return this;
    }

    private static void refresh(String name, String queue, String store, Function<String, Map<String, Long>> count,
            MultiGauge gauge, Set<String> seen) {
        Map<String, Long> counts;
        try {
            counts = count.apply(store);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot read the " + queue + " queue of store " + store
                    + " for " + name + "; keeping the last values: " + e.getClass().getName());
            return;
        }
        seen.addAll(counts.keySet());
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (String tool : seen) {
            // A tool whose queue emptied reads 0, rather than vanishing from dashboards.
            rows.add(MultiGauge.Row.of(Tags.of("tool", tool), counts.getOrDefault(tool, 0L)));
        }
        gauge.register(rows, true);
    }

    @Override
    public void attempt(String tool) {
        counter(ATTEMPTS, tool, null, null).increment();
    }

    @Override
    public void executed(String tool) {
        outcome(tool, "executed");
    }

    @Override
    public void replayed(String tool) {
        outcome(tool, "replayed");
    }

    @Override
    public void payloadConflict(String tool) {
        outcome(tool, "payload_conflict");
    }

    @Override
    public void inProgress(String tool) {
        outcome(tool, "in_progress");
    }

    @Override
    public void awaitingReconciliation(String tool) {
        outcome(tool, "awaiting_reconciliation");
    }

    @Override
    public void failedSafe(String tool) {
        outcome(tool, "failed_safe");
    }

    @Override
    public void reconciled(String tool, Reconciliation.Outcome outcome) {
        outcome(tool, "reconciled_" + outcome.name().toLowerCase(Locale.ROOT));
    }

    @Override
    public void approvalRequested(String tool) {
        approval(tool, "requested");
    }

    @Override
    public void approvalGranted(String tool) {
        approval(tool, "granted");
    }

    @Override
    public void approvalDenied(String tool) {
        approval(tool, "denied");
    }

    @Override
    public void approvalExpired(String tool) {
        approval(tool, "expired");
    }

    @Override
    public void attemptLogRowRefused(String tool) {
        counter(ATTEMPT_LOG_REFUSED, tool, null, null).increment();
    }

    /**
     * Counts the answers of approval tools' calls; the other outcomes are counted by their own
     * events. The key is not used: keys are never tags.
     */
    @Override
    public void answered(String tool, String key, CallOutcome outcome) {
        if (outcome == CallOutcome.AWAITING_APPROVAL || outcome == CallOutcome.APPROVAL_DENIED) {
            outcome(tool, outcome.name().toLowerCase(Locale.ROOT));
        }
    }

    @Override
    public void duplicateWaited(String tool, Duration waited, boolean answered) {
        String ended = answered ? "answered" : "in_progress";
        timers.computeIfAbsent(DUPLICATE_WAITS + '\u0000' + tool + '\u0000' + ended, k -> Timer.builder(DUPLICATE_WAITS)
                .tag("tool", tool).tag("ended", ended).register(registry)).record(waited);
    }

    @Override
    public void claimLatency(String tool, Duration elapsed) {
        timer(tool, "claim").record(elapsed);
    }

    @Override
    public void completionLatency(String tool, Duration elapsed) {
        timer(tool, "completion").record(elapsed);
    }

    private void outcome(String tool, String outcome) {
        counter(OUTCOMES, tool, "outcome", outcome).increment();
    }

    private void approval(String tool, String event) {
        counter(APPROVALS, tool, "event", event).increment();
    }

    private Counter counter(String name, String tool, String tag, String value) {
        return counters.computeIfAbsent(name + '\u0000' + tool + '\u0000' + value, k -> {
            Counter.Builder builder = Counter.builder(name).tag("tool", tool);
            if (value != null) {
                builder.tag(tag, value);
            }
            return builder.register(registry);
        });
    }

    private Timer timer(String tool, String operation) {
        return timers.computeIfAbsent(tool + '\u0000' + operation, k -> Timer.builder(STORE_LATENCY).tag("tool", tool)
                .tag("operation", operation).register(registry));
    }

    /** Stops the queue reads ({@link #watchQueue}, {@link #watchApprovals}); the meters stay in the registry. */
    @Override
    public synchronized void close() {
        watchers.forEach(ScheduledExecutorService::shutdownNow);
        watchers.clear();
    }
}
