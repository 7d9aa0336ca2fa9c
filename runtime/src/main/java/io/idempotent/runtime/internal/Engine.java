package io.idempotent.runtime.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ApprovalDeniedException;
import io.idempotent.runtime.ApprovalPendingException;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.CallOutcome;
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
import io.idempotent.runtime.Step;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.ValueRejectedException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.PayloadCodec.CanonicalPayload;
import io.idempotent.runtime.internal.store.ApprovalRequest;
import io.idempotent.runtime.internal.store.AttemptEnd;
import io.idempotent.runtime.internal.store.AttemptRow;
import io.idempotent.runtime.internal.store.ClaimRequest;
import io.idempotent.runtime.internal.store.ClaimResult;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.StoredOperation;
import io.idempotent.runtime.internal.store.Takeover;
import io.idempotent.runtime.internal.store.Transition;
import java.lang.System.Logger.Level;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
    /** How long a reconciler may take before its answer counts as UNKNOWN, unless configured. */
    public static final Duration DEFAULT_RECONCILER_TIMEOUT = Duration.ofSeconds(10);

    private static final System.Logger LOG = System.getLogger(Engine.class.getName());

    private final StoreRegistry stores;
    private final PayloadCodec payloads;
    private final ResultCodec results;
    /** The fix for a result type the mapper cannot read back, whichever check found it. */
    static final String UNREADABLE_TYPE_ADVICE = "Fix the type as the release gate's [IdemResultReadBack] says (a record,"
            + " a no-argument constructor, a @JsonCreator whose parameters are named with @JsonProperty, @JsonTypeInfo"
            + " on an interface), or give the runtime an ObjectMapper with the module that reads it"
            + " (jackson-module-kotlin for a Kotlin class); see docs/troubleshooting.md";
    private final MetricsListener metrics;
    private final Duration reconcilerTimeout;
    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat();
    private final LostClaimReleases lostClaims = new LostClaimReleases();
    private final ExecutorService reconcilers = Executors.newCachedThreadPool(
            DaemonThreads.named("idempotent-reconciler"));
    /** The return type each tool was last called with, by store and tool, for operators settling by hand. */
    private final Map<String, Map<String, Type>> resultTypes = new ConcurrentHashMap<>();
    /** Which class holds each tool name on each store. */
    private final ToolOwners owners = new ToolOwners();
    private final CallsInFlight calls = new CallsInFlight();
    private final AsyncToolCalls async;
    /** Whether an in-flight duplicate waits for the original's outcome, and how long at most. */
    private volatile DuplicateWaits duplicateWaits = DuplicateWaits.OFF;
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
        this.reconcilerTimeout = reconcilerTimeout;
        for (String name : stores.names()) {
            stores.get(name, null).onRefusedAnswer(metrics::attemptLogRowRefused);
        }
    }

    /**
     * The return type {@code tool} of {@code store} was called with in this JVM, if it was: what an
     * operator's settlement without an explicit type is checked against.
     */
    public Optional<Type> resultType(String store, String tool) {
        return Optional.ofNullable(resultTypes.getOrDefault(store, Map.of()).get(tool));
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
        this.duplicateWaits = new DuplicateWaits(bound);
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
        String problem = OperationKeys.problem(key);
        if (problem != null) {
            throw new InvalidOperationKeyException(tool, null, "the operation key " + problem + "; nothing was claimed");
        }
        StoreColumns.requireFits(tool, key, "tool name", "tool", tool);
        OperationStore store = stores.get(policy.store(), tool);
        if (toolClass != null) {
            owners.requireSole(policy, toolClass);
        }
        String unreadable = results.readProblem(resultType);
        if (unreadable != null) {
            throw new ResultNotReplayableException(tool, key, "the result type " + resultType.getTypeName()
                    + " cannot be read back by the runtime's ObjectMapper: " + unreadable + "; nothing was claimed and"
                    + " the body did not run", UNREADABLE_TYPE_ADVICE, null);
        }
        // Looked up by the names' cached hashes, written only when it changes: no key is built per call.
        Map<String, Type> typesOfStore = resultTypes.computeIfAbsent(policy.store(), name -> new ConcurrentHashMap<>());
        if (resultType != null && typesOfStore.get(tool) != resultType) {
            typesOfStore.put(tool, resultType);
        }
        CanonicalPayload canonical = payloads.encode(tool, key, payload);
        String attemptId = AttemptIds.next();
        boolean effectAtStart = policy.effectBoundary() == EffectBoundary.BODY_START;
        ClaimRequest request = new ClaimRequest(attemptId, key, tool, canonical.sha256(), canonical.json(), policy.lease(),
                policy.retention(), effectAtStart);
        Call call = new Call(store, policy, key, canonical.sha256(), canonical.json(), attemptId, resultType);

        for (int round = 0; round < MAX_ROUNDS; round++) {
            ClaimResult claim;
            long sent = System.nanoTime();
            try {
                claim = policy.approvalRequired() ? store.requestApproval(request, approvalRequest(policy, key))
                        : store.claim(request);
                metrics.claimLatency(tool, Duration.ofNanos(System.nanoTime() - sent));
            } catch (StoreUnavailableException e) {
                // The store says whether the claim may have been recorded (a statement was sent) or not.
                if (!policy.approvalRequired() && ClaimResult.mayHaveBeenRecorded(e)) {
                    // The body did not start: a recorded claim is released once the store answers.
                    lostClaims.release(store, tool, key, attemptId, policy.lease());
                }
                throw new StoreUnavailableException(tool, key, e.happened() + ", and the body did not run",
                        e.advice(), e.getCause());
            } catch (StoreConfigurationException e) {
                throw new StoreConfigurationException(tool, key, e.happened() + ", and the body did not run",
                        e.advice(), e.getCause());
            } catch (ValueRejectedException e) {
                throw new ValueRejectedException(tool, key, e.happened() + "; nothing was claimed and the body did"
                        + " not run", e.advice(), e.getCause());
            }
            if (claim instanceof ClaimResult.Inserted inserted) {
                if (policy.approvalRequired()) {
                    metrics.approvalRequested(tool);
                    throw awaitingApproval(tool, key, "the operation is recorded as awaiting a person's approval");
                }
                return execute(call, inserted.leaseToken(), inserted.attempts(), sent);
            }
            StoredOperation op = ((ClaimResult.Existing) claim).operation();
            Invocation decided = decide(call, op);
            if (decided != null) {
                return decided;
            }
        }
        metrics.inProgress(tool);
        throw new OperationInProgressException(tool, key, "the operation changed " + MAX_ROUNDS + " times while this"
                + " call decided; other attempts are working on it");
    }

    /** One decision on one read of the row; null means "the row changed: read it again". */
    private Invocation decide(Call call, StoredOperation op) {
        String tool = call.policy.name();
        if (!op.payloadHash().equals(call.payloadHash)) {
            answer(call, op, AttemptOutcome.PAYLOAD_CONFLICT, "payload hash " + call.payloadHash + " differs from the"
                    + " stored " + op.payloadHash());
            metrics.payloadConflict(tool);
            // Neither hash is said: a low-entropy payload (an amount, an account id) is guessed
            // offline from its hash. The attempt log keeps both, for the operator.
            throw new PayloadConflictException(tool, call.key, "the operation key was already used with a different"
                    + " payload (the payload hashes differ)");
        }
        return switch (op.status()) {
            case COMPLETED -> replay(call, op);
            case IN_PROGRESS -> inProgress(call, op);
            case FAILED_SAFE -> failedSafe(call, op);
            case NEEDS_RECONCILIATION -> reconcile(call, op);
            case AWAITING_APPROVAL -> {
                answer(call, op, AttemptOutcome.AWAITING_APPROVAL, null);
                throw awaitingApproval(tool, call.key, "the operation still awaits a person's approval (status"
                        + " awaiting_approval)");
            }
            case APPROVED -> approved(call, op);
            case DENIED -> {
                answer(call, op, AttemptOutcome.DENIED, null);
                throw new ApprovalDeniedException(tool, call.key, "an operator denied the operation (status denied);"
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
        String tool = call.policy.name();
        if (!op.leaseExpired()) {
            return takeOver(call, op, false, false, null);
        }
        // The store writes the APPROVAL_EXPIRED row with the change, under this call's attempt id.
        if (withKey(tool, call.key, () -> call.store.expireApproval(tool, call.key, op.leaseToken(), call.attemptId))
                .applied()) {
            metrics.approvalExpired(tool);
        }
        return null;
    }

    private static ApprovalRequest approvalRequest(ToolPolicy policy, String key) {
        String step = Step.currentKey().orElse(null);
        StoreColumns.requireFits(policy.name(), key, "step key", "requested_step", step);
        return new ApprovalRequest(step, Requester.ID, policy.approvalValidity());
    }

    private static ApprovalPendingException awaitingApproval(String tool, String key, String happened) {
        return new ApprovalPendingException(tool, key, happened + "; the body did not run");
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
            Optional<StoredOperation> ended = duplicateWaits.awaitEnd(call.store, op, metrics);
            if (ended.isPresent()) {
                return waitedFor(call, ended.get());
            }
            answer(call, op, AttemptOutcome.IN_PROGRESS, "lease held until " + op.leaseUntil());
            metrics.inProgress(tool);
            throw new OperationInProgressException(tool, call.key, "another attempt holds the lease (status"
                    + " in_progress, until " + op.leaseUntil() + ")");
        }
        if (!op.effectStarted() && call.policy.retry() != Retry.NEVER) {
            // The previous worker died before its effect boundary: provably nothing happened.
            return takeOver(call, op, true, true, null);
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

    /**
     * The answer of a duplicate that waited for the attempt in progress: that attempt's result,
     * or its classified failure; never a run of the body (a failed-safe operation is run again by
     * the next call, not by one that came while it ran).
     */
    private Invocation waitedFor(Call call, StoredOperation op) {
        String tool = call.policy.name();
        return switch (op.status()) {
            case COMPLETED -> replay(call, op);
            case FAILED_SAFE -> {
                // Retryable where a fresh call would re-run it: the repeat claims the row and runs.
                boolean rerun = rerunsFailedSafe(call.policy, op);
                answer(call, op, AttemptOutcome.REFUSED, "waited for attempt " + op.attempts() + ", which failed safe");
                throw new OperationFailedException(tool, call.key, "this call waited for the attempt in progress,"
                        + " which failed before its effect could begin (status failed_safe); the body did not run"
                        + " for this call", rerun);
            }
            default -> {
                answer(call, op, AttemptOutcome.REFUSED, "waited for attempt " + op.attempts() + ", whose outcome"
                        + " is unknown");
                throw new NeedsReconciliationException(tool, call.key, "this call waited for the attempt in"
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
        if (!rerunsFailedSafe(call.policy, op)) {
            String tool = call.policy.name();
            answer(call, op, AttemptOutcome.REFUSED, "Retry.NEVER: the failed operation is not re-run");
            throw new OperationFailedException(tool, call.key, "an earlier attempt failed before its effect could"
                    + " begin (status failed_safe), and Retry.NEVER does not re-run it");
        }
        return takeOver(call, op, false, false, null);
    }

    private Invocation reconcile(Call call, StoredOperation op) {
        ToolPolicy policy = call.policy;
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
                    json = results.writeReplayable(tool, call.key, answer.result(), call.resultType);
                } catch (ResultNotReplayableException e) {
                    // The effect happened, by the reconciler's word: running the body again would
                    // repeat it, so this is for a person, whatever the retry policy says.
                    answer = Reconciliation.unknown(policy.reconcilerName() + " answered APPLIED, but "
                            + e.happened());
                    said = answer.reason();
                    appliedButUnstorable = true;
                    break;
                }
                if (withKey(tool, call.key, () -> call.store.settleApplied(tool, call.key, op.leaseToken(), json)
                        .applied())) {
                    answer(call, op, AttemptOutcome.RECONCILED_APPLIED, answer.reason());
                    return new Invocation.Replay(results.read(tool, call.key, json, call.resultType));
                }
                return null;
            }
            case NOT_APPLIED -> {
                if (withKey(tool, call.key, () -> call.store.settleNotApplied(tool, call.key, op.leaseToken(), null)
                        .applied())) {
                    answer(call, op, AttemptOutcome.RECONCILED_NOT_APPLIED, answer.reason());
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
            Invocation resent = takeOver(call, op, false, false, retention);
            if (resent != null || changed(call, op)) {
                return resent;
            }
            answer = Reconciliation.unknown("the operation was first claimed more than downstreamRetention ("
                    + retention + ") ago, so the downstream may have forgotten the key; it is not re-sent");
            said = answer.reason();
        }
        answer(call, op, AttemptOutcome.RECONCILED_UNKNOWN, answer.reason());
        // No cause: a reconciler's exception carries its downstream's words, and a cause's
        // message reaches every log and model that prints this exception.
        throw new NeedsReconciliationException(tool, call.key, "the effect may or may not have happened (status"
                + " needs_reconciliation: " + said + ")", whereTheReasonIs(tool, call.key) + ". "
                + NeedsReconciliationException.ADVICE, null);
    }

    /** Where an operator reads a reconciler's reason, which no message or log line carries. */
    private static String whereTheReasonIs(String tool, String key) {
        return "The attempt log holds the reconciler's reason (the command line's show " + tool + " " + key
                + ", the web console, or Operations.find)";
    }

    /** Whether the row is no longer as {@code op} observed it. */
    private static boolean changed(Call call, StoredOperation op) {
        return withKey(call.policy.name(), call.key, () -> call.store.find(call.policy.name(), call.key))
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
        ToolPolicy policy = call.policy;
        Optional<Supplier<? extends Reconciler<?>>> factory = policy.reconciler();
        if (factory.isEmpty()) {
            return Asked.own(Reconciliation.unknown("no reconciler declared"), false);
        }
        OperationRecord record = record(call.store, op);
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
            LOG.log(Level.WARNING, "tool " + policy.name() + ", key " + call.key + ": " + asked.said() + "; the"
                    + " operation stays needs_reconciliation. " + whereTheReasonIs(policy.name(), call.key));
        }
        metrics.reconciled(policy.name(), asked.answer().outcome());
        return asked;
    }

    private Invocation takeOver(Call call, StoredOperation op, boolean requireExpired, boolean requireEffectNotStarted,
            Duration createdWithin) {
        ToolPolicy policy = call.policy;
        Takeover takeover = new Takeover(call.attemptId, policy.name(), call.key, op.status(),
                op.leaseToken(), requireExpired, requireEffectNotStarted, policy.lease(), policy.retention(),
                policy.effectBoundary() == EffectBoundary.BODY_START, createdWithin);
        long sent = System.nanoTime();
        // The store says which lease token and attempt number this attempt now holds.
        if (withKey(policy.name(), call.key, () -> call.store.takeOver(takeover)) instanceof Transition.Applied owned) {
            return execute(call, owned.leaseToken(), owned.attempts(), sent);
        }
        return null;
    }

    private Invocation execute(Call call, long leaseToken, int attempt, long claimSent) {
        String tool = call.policy.name();
        AttemptContext context = new AttemptContext(call.store, call.policy, call.key, call.attemptId, attempt,
                leaseToken, call.payloadHash, call.payloadJson, call.resultType, claimSent);
        // The claim or take-over wrote the attempt RUNNING on the operation's row: no follow-up
        // write stands between the claim and the body.
        metrics.executed(tool);
        CurrentAttempt.push(context);
        // A transactional call's claim is not visible before it commits: there is no lease to renew.
        return new Invocation.Execution(this, context, call.policy.transactional() ? null : heartbeat.start(context));
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

    /**
     * An ending that found no record at all: the attempt writes it again as {@code status}
     * ({@link LostRecords}). {@link Written#WRITTEN} when it did, {@link Written#TAKEN_OVER} when
     * another claim made a row of the key meanwhile. The body ran, and its effect may have
     * happened, so a store that fails the re-creation is not "retry later": a repeat would find no
     * record and run the body again. It is {@link NeedsReconciliationException}, not retryable.
     */
    private static Written recreateAfterTheEffect(AttemptContext attempt, OperationStatus status, String resultJson,
            String errorJson, String what) {
        try {
            return LostRecords.recreate(attempt, status, resultJson, errorJson) ? Written.WRITTEN
                    : Written.TAKEN_OVER;
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            throw new NeedsReconciliationException(attempt.policy().name(), attempt.key(), what + ", but its"
                    + " operation's record was missing and could not be written again (" + e.happened() + "): no"
                    + " record holds this attempt's outcome, and a repeat with the same key would run the body"
                    + " again", "Do not repeat the call until someone has checked the downstream for this key's"
                    + " effect; then check the store's replication (a failover with asynchronous replication, or a"
                    + " restore from a backup, loses records)", e);
        }
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

    /**
     * Ends the attempt in the attempt log where no transition of the operation did (a lost
     * lease). Bookkeeping: the operation's row already says what happened, so a failure here is
     * logged and never changes what the caller gets.
     */
    private void endAttempt(AttemptContext attempt, AttemptOutcome outcome, String detail) {
        String tool = attempt.policy().name();
        try {
            attempt.store().endAttempt(tool, attempt.key(), attempt.attemptId(), outcome, attempt.downstreamId(),
                    detail);
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            bookkeepingFailed(tool, attempt.key(), "the attempt log's " + outcome + " entry", e);
        }
    }

    private static void bookkeepingFailed(String tool, String key, String what, IdempotencyException e) {
        LOG.log(Level.WARNING, () -> "tool " + tool + ", key " + key + ": " + what + " could not be written ("
                + e.happened() + "); the operation's own record is unaffected");
    }

    private static Written storeCompletion(AttemptContext attempt, String json) {
        return fencedWrite(attempt, OperationStatus.COMPLETED, () -> attempt.store().complete(attempt.policy().name(),
                attempt.key(), attempt.leaseToken(), attempt.attemptId(), json, new AttemptEnd(attempt.downstreamId(),
                        null, attempt.messages())).applied());
    }

    /**
     * An attempt's final write (its completion or its failure), tried again when the store fails
     * under it: the outcome is known here and nowhere else, and an unwritten one leaves the
     * operation to expire into reconciliation. Each try is fenced by the lease token and the attempt
     * id, so trying again is safe; a try that finds nothing to change reads the row, because the
     * failed try may have committed before its reply was lost. After three tries it goes on trying,
     * with a growing pause, while the attempt's lease lasts ({@link FinalWriteRetries}): with a
     * lease longer than a failover, a finished body's result is stored on the new primary instead
     * of expiring into reconciliation. A write that changed nothing tells a
     * record taken over by another attempt (a row with another lease token, attempt or state) from
     * a record that is not
     * there at all ({@link Written#MISSING}).
     */
    private static Written fencedWrite(AttemptContext attempt, OperationStatus written, Supplier<Boolean> write) {
        StoreUnavailableException failure = null;
        FinalWriteRetries retries = null;
        for (int i = 0; i < FINAL_WRITE_TRIES || retries.another(); i++) {
            try {
                if (write.get()) {
                    return Written.WRITTEN;
                }
                Optional<StoredOperation> row = attempt.store().find(attempt.policy().name(), attempt.key());
                if (row.isEmpty()) {
                    return Written.MISSING;
                }
                boolean stillOurs = row.get().status() == OperationStatus.IN_PROGRESS && heldBy(row.get(), attempt);
                if (stillOurs && i + 1 < FINAL_WRITE_TRIES) {
                    continue; // a heartbeat wrote the missing record again just before this write: write again
                }
                boolean earlierTryCommitted = failure != null && row.get().status() == written
                        && heldBy(row.get(), attempt);
                return earlierTryCommitted ? Written.WRITTEN : Written.TAKEN_OVER;
            } catch (StoreUnavailableException e) {
                if (attempt.policy().transactional()) {
                    throw e; // the call's connection is its transaction: a repeat, not a retry, can help
                }
                if (failure == null) {
                    failure = e;
                    retries = new FinalWriteRetries(attempt);
                } else if (failure.getSuppressed().length < FINAL_WRITE_TRIES - 1) {
                    failure.addSuppressed(e);
                }
            }
        }
        throw failure;
    }

    /**
     * Whether the row is {@code attempt}'s: its lease token and the attempt on it. A record lost
     * and claimed afresh by another call restarts at lease token 1, so the token alone could be
     * another attempt's.
     */
    private static boolean heldBy(StoredOperation row, AttemptContext attempt) {
        return row.leaseToken() == attempt.leaseToken() && attempt.attemptId().equals(row.attemptId());
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

    /** The operator's and reconciler's view of a row, with the first page of its attempt log and its size. */
    OperationRecord record(OperationStore store, StoredOperation op) {
        JsonNode payload;
        try {
            payload = results.mapper().readTree(op.payloadJson());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the stored payload of " + op.key() + " is not JSON", e);
        }
        // A looping caller can give one key thousands of answers: load the first page, oldest first.
        AttemptPage first = store.attempts(op.tool(), op.key(), EnumSet.allOf(AttemptOutcome.class), 0,
                AttemptPage.FIRST_PAGE);
        return new OperationRecord(op.key(), op.tool(), op.status(), op.payloadHash(), payload, op.downstreamId(),
                op.resultJson(), op.errorJson(), op.attempts(), op.leaseToken(), op.leaseUntil(), op.effectStarted(),
                op.createdAt(), op.updatedAt(), op.expiresAt(), first.attempts(), first.total());
    }

    /**
     * Logs what a call was answered without running the body. Bookkeeping: a failure is logged
     * and the caller still gets the answer (a stored result, or the reason it gets none).
     */
    private void answer(Call call, StoredOperation op, AttemptOutcome outcome, String detail) {
        try {
            call.store.logAttempt(new AttemptRow(call.attemptId, call.key, call.policy.name(), outcome, 0,
                    call.payloadHash, op.downstreamId(), detail, op.readAt()));
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            if (closed) {
                // The call outlived close()'s wait and its store is closed: an answer given now
                // would be missing from the attempt log, so the call gets none.
                StoreConfigurationException refused = closedRefusal(call.policy.name(), call.key);
                refused.addSuppressed(e);
                throw refused;
            }
            bookkeepingFailed(call.policy.name(), call.key, "the attempt log's " + outcome + " entry", e);
        }
    }

    private static StoreConfigurationException closedRefusal(String tool, String key) {
        return new StoreConfigurationException(tool, key, "this IdempotentRuntime was closed; the call is refused"
                + " and the body did not run", "Build a new runtime (and IdempotentRuntime.setGlobal it, if the"
                + " agent uses it)", null);
    }

    /** Runs a store call, naming the tool and key in a store failure. */
    private static <T> T withKey(String tool, String key, Supplier<T> storeCall) {
        try {
            return storeCall.get();
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            if (e.operationKey() != null) {
                throw e;
            }
            IdempotencyException named = e instanceof StoreUnavailableException
                    ? new StoreUnavailableException(tool, key, e.happened(), e.advice(), e.getCause())
                    : new StoreConfigurationException(tool, key, e.happened(), e.advice(), e.getCause());
            for (Throwable earlier : e.getSuppressed()) {
                named.addSuppressed(earlier);
            }
            throw named;
        }
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
        reconcilers.shutdownNow();
        stores.close();
    }

    /** What an attempt's final write did. */
    private enum Written {
        /** The record holds the attempt's outcome. */
        WRITTEN,
        /** Another attempt holds the record now (another lease token, attempt or state): the outcome is not stored. */
        TAKEN_OVER,
        /** There is no record of the operation at all (see {@link LostRecords}). */
        MISSING
    }

    /** The fixed facts of one call. */
    private record Call(OperationStore store, ToolPolicy policy, String key, String payloadHash, String payloadJson,
            String attemptId, Type resultType) {
    }

}
