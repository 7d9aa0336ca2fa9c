package io.idempotent.runtime.internal;

import static io.idempotent.runtime.internal.AttemptLogEntries.closedRefusal;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.runtime.CallOutcome;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.PayloadCodec.CanonicalPayload;
import io.idempotent.runtime.internal.store.ClaimRequest;
import io.idempotent.runtime.internal.store.ClaimResult;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.lang.System.Logger.Level;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The tool protocol: claim the key, then execute, replay, wait, reject or reconcile; after the
 * body, complete or classify the failure. Every decision about an existing row is made on one
 * consistent read of it and carried out by one conditional statement; a lost race re-reads.
 *
 * <p>This class keeps the order of the steps; each decision has a room of its own:
 * {@link CallChecks} (before anything is claimed), {@link Claims} (the claim and a store failure
 * at it), {@link ClaimDecisions} (the decision on the row), {@link Reconciliations},
 * {@link AttemptStarts}, and the end of an attempt in {@link Completions} and
 * {@link FailureClassification}, both written by {@link FencedWrites}.
 */
public final class Engine implements AutoCloseable {

    /** How often one call re-reads a row that changed under it before it gives up. */
    private static final int MAX_ROUNDS = 16;
    /** How long a reconciler may take before its answer counts as UNKNOWN, unless configured. */
    public static final Duration DEFAULT_RECONCILER_TIMEOUT = Duration.ofSeconds(10);

    private static final System.Logger LOG = System.getLogger(Engine.class.getName());

    private final StoreRegistry stores;
    private final PayloadCodec payloads;
    private final ResultCodec results;
    private final MetricsListener metrics;
    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat();
    private final LostClaimReleases lostClaims = new LostClaimReleases();
    private final CallsInFlight calls = new CallsInFlight();
    private final AsyncToolCalls async;
    private final CallChecks checks;
    private final Claims claims;
    private final OperationRecords records;
    private final Reconciliations reconciliations;
    private final ClaimDecisions decisions;
    private volatile boolean closed;

    /** An engine over the given stores, codecs and metrics. */
    public Engine(StoreRegistry stores, PayloadCodec payloads, ResultCodec results, MetricsListener metrics) {
        this(stores, payloads, results, metrics, DEFAULT_RECONCILER_TIMEOUT);
    }

    /** An engine whose reconcilers must answer within {@code reconcilerTimeout}. */
    public Engine(StoreRegistry stores, PayloadCodec payloads, ResultCodec results, MetricsListener metrics,
            Duration reconcilerTimeout) {
        this(stores, payloads, results, metrics, reconcilerTimeout, AsyncSettings.DEFAULT);
    }

    /** As above, with the settings of asynchronous tool calls. */
    public Engine(StoreRegistry stores, PayloadCodec payloads, ResultCodec results, MetricsListener metrics,
            Duration reconcilerTimeout, AsyncSettings asyncSettings) {
        this.async = new AsyncToolCalls(this, asyncSettings);
        this.stores = stores;
        this.payloads = payloads;
        this.results = results;
        this.metrics = metrics;
        this.checks = new CallChecks(stores, results);
        this.claims = new Claims(metrics, lostClaims);
        this.records = new OperationRecords(results);
        // Every room below this one is handed what it uses; none calls back up.
        AttemptLogEntries attemptLog = new AttemptLogEntries(() -> closed);
        AttemptStarts starts = new AttemptStarts(heartbeat, metrics, new Completions(results, metrics),
                new FailureClassification(results, metrics));
        this.reconciliations = new Reconciliations(results, metrics, reconcilerTimeout, records, attemptLog, starts);
        this.decisions = new ClaimDecisions(results, metrics, attemptLog, starts, reconciliations);
        for (String name : stores.names()) {
            stores.get(name, null).onRefusedAnswer(metrics::attemptLogRowRefused);
        }
    }

    /**
     * The return type {@code tool} of {@code store} was called with in this JVM, if it was: what an
     * operator's settlement without an explicit type is checked against.
     */
    public Optional<Type> resultType(String store, String tool) {
        return checks.resultType(store, tool);
    }

    /** The codec of stored results (for operators settling by hand). */
    public ResultCodec results() {
        return results;
    }

    /**
     * Lets a duplicate that finds its operation in progress wait, at most {@code bound}, for the
     * original attempt's outcome ({@link DuplicateWaits}); {@link Duration#ZERO} (the default)
     * answers it in progress at once.
     */
    public void duplicateWait(Duration bound) {
        decisions.duplicateWaits(new DuplicateWaits(bound));
    }

    /** Whether {@link #close()} was called: every call is refused from then on. */
    public boolean isClosed() {
        return closed;
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
        return begin(policy, key, payload, resultType, null);
    }

    /**
     * Decides one call of a tool declared by {@code toolClass} (null when the caller brought a
     * policy of its own): as {@link #begin(ToolPolicy, String, Map, Type)}, after checking that
     * no other class declares the tool's name on its store.
     */
    public Invocation begin(ToolPolicy policy, String key, Map<String, ?> payload, Type resultType,
            Class<?> toolClass) {
        Invocation invocation;
        try {
            if (!calls.enter()) {
                throw closedRefusal(policy.name(), null);
            }
            try {
                // A transactional tool's call is decided inside its transaction, by the same protocol.
                invocation = policy.transactional() ? TransactionalCalls.begin(stores, policy, key,
                        () -> decideCall(policy, key, payload, resultType, toolClass))
                        : decideCall(policy, key, payload, resultType, toolClass);
            } finally {
                calls.exit();
            }
        } catch (IdempotencyException e) {
            metrics.answered(policy.name(), key, CallOutcome.of(e));
            throw e;
        }
        metrics.answered(policy.name(), key, invocation instanceof Invocation.Replay ? CallOutcome.REPLAYED
                : CallOutcome.EXECUTED);
        return invocation;
    }

    /** The class a generated (or hand-written) binding belongs to. */
    public static Class<?> toolClassOf(io.idempotent.runtime.binding.ToolBinding binding) {
        return ToolOwners.toolClassOf(binding);
    }

    private Invocation decideCall(ToolPolicy policy, String key, Map<String, ?> payload, Type resultType,
            Class<?> toolClass) {
        String tool = policy.name();
        metrics.attempt(tool);
        OperationStore store = checks.check(policy, key, resultType, toolClass);
        CanonicalPayload canonical = payloads.encode(tool, key, payload);
        String attemptId = AttemptIds.next();
        boolean effectAtStart = policy.effectBoundary() == EffectBoundary.BODY_START;
        ClaimRequest request = new ClaimRequest(attemptId, key, tool, canonical.sha256(), canonical.json(), policy.lease(),
                policy.retention(), effectAtStart);
        Call call = new Call(store, policy, key, canonical.sha256(), canonical.json(), attemptId, resultType);

        for (int round = 0; round < MAX_ROUNDS; round++) {
            long sent = System.nanoTime();
            ClaimResult claim = claims.send(call, request, sent);
            Invocation decided = decisions.decide(call, claim, sent);
            if (decided != null) {
                return decided;
            }
        }
        metrics.inProgress(tool);
        throw new OperationInProgressException(tool, key, "the operation changed " + MAX_ROUNDS + " times while this"
                + " call decided; other attempts are working on it");
    }

    /** The operator's and reconciler's view of a row, with the first page of its attempt log and its size. */
    OperationRecord record(OperationStore store, StoredOperation op) {
        return records.record(store, op);
    }

    /** Runs calls whose bodies return a {@code CompletionStage}, on the runtime's bounded executor. */
    public AsyncToolCalls async() {
        return async;
    }

    /**
     * Refuses new calls, waits for the calls being decided (at most the longest of the stores'
     * close timeouts), then closes the stores, each of which first writes the answers queued for
     * its attempt log. A call still deciding after the wait is refused if its answer can no
     * longer be written. Closing again does nothing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Calls already queued run and find the engine closed: their stages fail, none is left pending.
        async.close();
        Duration wait = Duration.ZERO;
        for (String name : stores.names()) {
            Duration timeout = stores.get(name, null).closeTimeout();
            wait = timeout.compareTo(wait) > 0 ? timeout : wait;
        }
        int stillDeciding = calls.close(wait);
        if (stillDeciding > 0) {
            LOG.log(Level.WARNING, "closing the runtime: " + stillDeciding + " calls were still being decided after "
                    + wait + "; each is refused unless its answer reaches the attempt log");
        }
        heartbeat.close();
        lostClaims.close();
        reconciliations.close();
        stores.close();
    }
}
