package io.idempotent.test;

import io.idempotent.runtime.ApprovalDeniedException;
import io.idempotent.runtime.ApprovalPendingException;
import io.idempotent.runtime.CountingMetrics;
import io.idempotent.runtime.CountingMetrics.Event;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationFailedException;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolPolicy;
import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One case: one failure test under one fault on one database, with a store, a runtime and a
 * downstream of its own. Runs the calls a workflow would make (the call, its retries with the
 * same key, a duplicate) and checks what they did against the {@link Expectation}. On a tool that
 * needs approval, the case first makes the call that records the request, grants it as an operator
 * would (through the runtime's {@code Approvals}, with the payload hash the queue shows), and then
 * runs the test on the approved operation.
 */
final class CaseRun {

    /** One failure test under one fault. */
    record Case(FailureTest test, Fault fault) {
    }

    /** The lease of the cases that must wait for a dead worker's lease: long enough for a loaded machine's heartbeat. */
    private static final Duration SHORT_LEASE = Duration.ofSeconds(1);
    private static final Duration ANSWER_DEADLINE = Duration.ofSeconds(20);

    private static final List<Case> CASES = List.of(
            new Case(FailureTest.DUPLICATE_AFTER_COMPLETION, Fault.NONE),
            new Case(FailureTest.DUPLICATE_AFTER_COMPLETION, Fault.STORE_FAILS_ONCE_BEFORE_COMPLETION),
            new Case(FailureTest.DUPLICATE_AFTER_COMPLETION, Fault.STORE_LOSES_COMPLETION_REPLY),
            new Case(FailureTest.CHANGED_PAYLOAD, Fault.NONE),
            new Case(FailureTest.CHANGED_PAYLOAD, Fault.REPLY_LOST_TIMEOUT),
            new Case(FailureTest.CONCURRENT_CALLERS, Fault.NONE),
            new Case(FailureTest.CONCURRENT_CALLERS, Fault.REPLY_LOST_TIMEOUT),
            new Case(FailureTest.FAILURE_AT_THE_EXTERNAL_CALL, Fault.CONNECTION_REFUSED),
            new Case(FailureTest.FAILURE_AT_THE_EXTERNAL_CALL, Fault.TIMEOUT_BEFORE_SEND),
            new Case(FailureTest.FAILURE_AT_THE_EXTERNAL_CALL, Fault.REPLY_LOST_TIMEOUT),
            new Case(FailureTest.FAILURE_AT_THE_EXTERNAL_CALL, Fault.CONNECTION_RESET_AFTER_COMMIT),
            new Case(FailureTest.FAILURE_AT_THE_EXTERNAL_CALL, Fault.WORKER_DIES_AFTER_COMMIT),
            new Case(FailureTest.FAILURE_AT_THE_EXTERNAL_CALL, Fault.STORE_DOWN_UNDER_COMPLETION));

    /** The approval gate's own cases, added for a tool that needs approval. */
    private static final List<Case> APPROVAL_CASES = List.of(
            new Case(FailureTest.APPROVAL_PENDING, Fault.NONE),
            new Case(FailureTest.APPROVED_THEN_CHANGED_PAYLOAD, Fault.NONE),
            new Case(FailureTest.APPROVAL_DENIED, Fault.NONE));

    /** Who grants and denies in the kit's cases, as the attempt log names the operator. */
    static final String APPROVER = "contract-test";

    private final ToolContract<?> contract;
    private final Case kase;
    private final KitDatabase database;
    private final ToolBinding binding;
    private final ToolPolicy policy;
    private final ReturnKind kind;
    private final List<String> failures = new ArrayList<>();
    private final AtomicInteger executions = new AtomicInteger();
    private final AtomicInteger replays = new AtomicInteger();
    private final AtomicInteger inProgressAnswers = new AtomicInteger();
    private final FaultPlan plan = new FaultPlan();
    private final CountingMetrics metrics = new CountingMetrics();
    private FaultyStoreDataSource store;
    private IdempotentRuntime runtime;
    private Downstream<?> downstream;
    private String key;
    private volatile StoreArm storeArm;
    private String expected = "";

    /** A store failure armed for the completion write of the next body that returns. */
    private record StoreArm(int times, FaultyStoreDataSource.Strike strike) {
    }

    CaseRun(ToolContract<?> contract, Case kase, KitDatabase database) {
        this.contract = contract;
        this.kase = kase;
        this.database = database;
        this.binding = contract.binding();
        this.kind = ReturnKind.of(contract.method());
        this.policy = kase.fault().leavesLeaseToExpire() ? withLease(contract.policy(), SHORT_LEASE) : contract.policy();
    }

    /** The cases of a tool with {@code policy}: the four tests, and the approval gate's when it needs approval. */
    static List<Case> cases(ToolPolicy policy) {
        if (!policy.approvalRequired()) {
            return CASES;
        }
        List<Case> all = new ArrayList<>(CASES);
        all.addAll(APPROVAL_CASES);
        return List.copyOf(all);
    }

    CaseResult run() {
        long requests = 0;
        long effects = 0;
        OperationStatus finalStatus = null;
        try (StoreFixture fixture = database.open()) {
            store = new FaultyStoreDataSource(fixture.dataSource());
            runtime = IdempotentRuntime.builder().store(policy.store(), store).metrics(metrics).build();
            try {
                downstream = contract.setup().apply(new Faults(plan));
                try (Step ignored = step()) {
                    key = binding.key(contract.arguments());
                }
                // The binding's policy says whether the tool needs approval: the case's own may not drop it.
                boolean approval = contract.policy().approvalRequired();
                if (kase.test().approvalOnly()) {
                    runApprovalCase();
                } else if (!approval || requestAndDecide(true)) {
                    runTest();
                    if (approval) {
                        expected = "once approved: " + expected;
                    }
                } else {
                    expected = "approval requested, then granted; then: " + expected;
                }
                requests = downstream.requests();
                effects = downstream.effects();
                finalStatus = status();
            } finally {
                runtime.close();
                if (downstream != null) {
                    downstream.close();
                }
            }
        } catch (Exception e) {
            failures.add("the case could not run: " + e);
        }
        return new CaseResult(policy.name(), kase.test(), kase.fault(), database, requests, effects, executions.get(),
                replays.get(), finalStatus, expected, List.copyOf(failures));
    }

    private void runTest() throws Exception {
        switch (kase.test()) {
            case DUPLICATE_AFTER_COMPLETION -> duplicateAfterCompletion();
            case CHANGED_PAYLOAD -> changedPayload();
            case CONCURRENT_CALLERS -> concurrentCallers();
            case FAILURE_AT_THE_EXTERNAL_CALL -> failureAtTheExternalCall();
            default -> throw new IllegalStateException(kase.test() + " is an approval case");
        }
    }

    private void runApprovalCase() {
        switch (kase.test()) {
            case APPROVAL_PENDING -> approvalPending();
            case APPROVED_THEN_CHANGED_PAYLOAD -> approvedThenChangedPayload();
            case APPROVAL_DENIED -> approvalDenied();
            default -> throw new IllegalStateException(kase.test() + " is not an approval case");
        }
    }

    // ---- the approval gate

    /**
     * The call that records the approval request, checked, and the operator's decision on it, made
     * with the payload hash the queue shows: a grant, or a denial when {@code grant} is false.
     *
     * @return whether the request was recorded as it should and the decision was taken
     */
    private boolean requestAndDecide(boolean grant) {
        if (!requestApproval("the first call")) {
            return false;
        }
        Optional<PendingApproval> request = queued();
        if (request.isEmpty()) {
            failures.add(ContractMessages.notQueued(policy, key));
            return false;
        }
        try {
            if (grant) {
                runtime.approvals().grant(policy.store(), policy.name(), key, request.get().payloadHash(), APPROVER,
                        "contract case " + kase.test().label() + " / " + kase.fault().label());
            } else {
                runtime.approvals().deny(policy.store(), policy.name(), key, request.get().payloadHash(), APPROVER,
                        "contract case " + kase.test().label());
            }
        } catch (RuntimeException e) {
            failures.add(ContractMessages.decisionRefused(policy, key, grant, e));
            return false;
        }
        OperationStatus decided = grant ? OperationStatus.APPROVED : OperationStatus.DENIED;
        if (status() != decided) {
            failures.add(ContractMessages.decisionNotRecorded(policy, key, grant, status()));
            return false;
        }
        return true;
    }

    /** One call before any decision: answered pending (retryable), nothing run, nothing at the downstream. */
    private boolean requestApproval(String which) {
        Answer a = call(contract.arguments());
        int failed = failures.size();
        if (!(a.thrown() instanceof ApprovalPendingException)) {
            failures.add(ContractMessages.notPending(policy, key, which, a.describe()));
        } else if (!((IdempotencyException) a.thrown()).retryable()) {
            failures.add(ContractMessages.answerRetryable(policy, key, "ApprovalPendingException", false));
        }
        expectNothingRan(which + " before any decision");
        return failures.size() == failed;
    }

    private void approvalPending() {
        expected = "pending, nothing run; a repeat pending; awaiting_approval, queued once";
        if (!requestApproval("the first call") || !requestApproval("a repeat")) {
            expectStatus(OperationStatus.AWAITING_APPROVAL);
            return;
        }
        List<PendingApproval> queue = runtime.approvals().pending(policy.store(), policy.name(), 0, 100);
        long queued = queue.stream().filter(p -> p.key().equals(key)).count();
        if (queued != 1) {
            failures.add(ContractMessages.queuedTimes(policy, key, queued));
        }
        expectStatus(OperationStatus.AWAITING_APPROVAL);
    }

    private void approvedThenChangedPayload() {
        expected = "granted; changed payload rejected, nothing run, the grant kept; the approved call then runs"
                + " once; completed";
        if (!requestAndDecide(true)) {
            return;
        }
        Answer changed = call(contract.changedArguments());
        if (!(changed.thrown() instanceof PayloadConflictException)) {
            failures.add(ContractMessages.changedAfterGrant(policy, key, changed.describe()));
        }
        expectNothingRan("the call with a changed payload after the grant");
        expectStatus(OperationStatus.APPROVED);
        Answer approved = call(contract.arguments());
        if (!approved.returned()) {
            failures.add(ContractMessages.grantNotUsed(policy, key, approved.describe()));
            return;
        }
        Answer duplicate = call(contract.arguments());
        if (!duplicate.returned() || duplicate.executed() || !sameResult(approved.result(), duplicate.result())) {
            failures.add("the duplicate of the approved and completed " + key + " was answered "
                    + duplicate.describe() + (duplicate.executed() ? ", running the body again" : "")
                    + " instead of the replayed result");
        }
        if (executions.get() != 1) {
            failures.add("the approved " + key + " ran the tool's body " + executions.get() + " times, expected once");
        }
        expectCounts(1, 1);
        expectStatus(OperationStatus.COMPLETED);
    }

    private void approvalDenied() {
        expected = "denied: every call ApprovalDeniedException, not retryable, nothing run; denied";
        if (!requestAndDecide(false)) {
            return;
        }
        for (String which : List.of("the call after the denial", "a repeat after the denial")) {
            Answer a = call(contract.arguments());
            if (!(a.thrown() instanceof ApprovalDeniedException)) {
                failures.add(ContractMessages.notDenied(policy, key, which, a.describe()));
            } else if (((IdempotencyException) a.thrown()).retryable()) {
                failures.add(ContractMessages.answerRetryable(policy, key, "ApprovalDeniedException", true));
            }
        }
        expectNothingRan("a call after the denial");
        expectStatus(OperationStatus.DENIED);
    }

    /** The body never ran and the downstream saw nothing. */
    private void expectNothingRan(String which) {
        if (executions.get() != 0 || downstream.requests() != 0 || downstream.effects() != 0) {
            failures.add(ContractMessages.ranWithoutApproval(policy, key, which, executions.get(),
                    downstream.requests(), downstream.effects()));
        }
    }

    private Optional<PendingApproval> queued() {
        return runtime.approvals().pending(policy.store(), policy.name(), 0, 100).stream()
                .filter(p -> p.key().equals(key)).findFirst();
    }

    // ---- the four tests

    private void duplicateAfterCompletion() {
        expected = "replayed; one request, one effect; completed";
        switch (kase.fault()) {
            case STORE_FAILS_ONCE_BEFORE_COMPLETION -> storeArm = new StoreArm(1, FaultyStoreDataSource.Strike.BEFORE_EXECUTING);
            case STORE_LOSES_COMPLETION_REPLY -> storeArm = new StoreArm(1, FaultyStoreDataSource.Strike.AFTER_COMMITTING);
            default -> {
            }
        }
        Answer first = call(contract.arguments());
        if (kase.fault() != Fault.NONE && store.injected() == 0) {
            failures.add("the store fault \"" + kase.fault().label() + "\" never struck the completion write");
        }
        if (!first.returned()) {
            failures.add("the first call of " + key + " failed: " + first.describe());
            return;
        }
        long requests = downstream.requests();
        Answer duplicate = call(contract.arguments());
        if (!duplicate.returned()) {
            failures.add("the duplicate of the completed " + key + " was answered " + duplicate.describe()
                    + " instead of the stored result");
        } else if (duplicate.executed()) {
            failures.add("the duplicate of the completed " + key + " ran the tool's body again");
        } else if (!sameResult(first.result(), duplicate.result())) {
            failures.add("the replay of " + key + " differs from the result the first call returned");
        }
        if (downstream.requests() != requests) {
            failures.add("the duplicate of the completed " + key + " called the downstream again (requests "
                    + requests + " -> " + downstream.requests() + ")");
        }
        expectCounts(1, 1);
        expectStatus(OperationStatus.COMPLETED);
    }

    private void changedPayload() {
        expected = "rejected, not executed; counts and status unchanged";
        Answer first;
        if (kase.fault() == Fault.NONE) {
            first = call(contract.arguments());
            if (!first.returned()) {
                failures.add("the first call of " + key + " failed: " + first.describe());
                return;
            }
        } else {
            plan.arm(kase.fault());
            first = call(contract.arguments());
            if (!checkFaultStruck(first)) {
                return;
            }
        }
        long requests = downstream.requests();
        long effects = downstream.effects();
        long reconciled = reconciled();
        int runs = executions.get();
        OperationStatus before = status();
        Answer changed = call(contract.changedArguments());
        if (!(changed.thrown() instanceof PayloadConflictException)) {
            failures.add("the call of " + key + " with a changed payload was answered " + changed.describe()
                    + " instead of PayloadConflictException");
        }
        if (executions.get() != runs) {
            failures.add("the call of " + key + " with a changed payload ran the tool's body");
        }
        if (downstream.requests() != requests || downstream.effects() != effects) {
            failures.add("the call of " + key + " with a changed payload reached the downstream (requests " + requests
                    + " -> " + downstream.requests() + ", effects " + effects + " -> " + downstream.effects() + ")");
        }
        if (reconciled() != reconciled) {
            failures.add("the call of " + key + " with a changed payload ran the reconciler");
        }
        expectStatus(before);
    }

    private void concurrentCallers() throws Exception {
        OperationStatus afterFirst = null;
        long requestsAfterFirst = 0;
        if (kase.fault() != Fault.NONE) {
            plan.arm(kase.fault());
            Answer first = call(contract.arguments());
            if (!checkFaultStruck(first)) {
                return;
            }
            afterFirst = status();
            requestsAfterFirst = downstream.requests();
        }
        int callers = contract.concurrentCallers();
        CountDownLatch othersAnswered = new CountDownLatch(callers - 1);
        plan.holdNextRequest(othersAnswered);
        CyclicBarrier start = new CyclicBarrier(callers);
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        List<Answer> answers = new ArrayList<>();
        try {
            List<Future<Answer>> futures = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                futures.add(pool.submit(() -> {
                    start.await(ANSWER_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
                    Answer a = call(contract.arguments());
                    if (Thread.currentThread() != plan.holder()) {
                        othersAnswered.countDown();
                    }
                    return a.inProgress() ? callUntilAnswered(contract.arguments()) : a;
                }));
            }
            for (Future<Answer> f : futures) {
                answers.add(f.get(ANSWER_DEADLINE.toMillis() * 2, TimeUnit.MILLISECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        if (kase.fault() == Fault.NONE) {
            expected = callers + " racing callers: one execution, the others replayed; completed";
            if (plan.holder() != null && inProgressAnswers.get() == 0) {
                failures.add("the " + callers + " callers of " + key + " did not overlap: none was answered in"
                        + " progress while the first held the key, so the race proved nothing");
            }
            if (executions.get() != 1) {
                failures.add(callers + " concurrent callers of " + key + " ran the tool's body " + executions.get()
                        + " times; the store must serialise them into one execution");
            }
            Object result = null;
            for (Answer a : answers) {
                if (!a.returned()) {
                    failures.add("a concurrent caller of " + key + " was answered " + a.describe());
                } else if (result == null) {
                    result = a.result();
                } else if (!sameResult(result, a.result())) {
                    failures.add("concurrent callers of " + key + " got different results");
                }
            }
            expectCounts(1, 1);
            expectStatus(OperationStatus.COMPLETED);
            return;
        }
        Expectation e = Expectation.afterFault(policy, kase.fault(), afterFirst);
        expected = callers + " racing retries: " + e.why();
        checkAfterFault(e, afterFirst, requestsAfterFirst, answers, null);
    }

    private void failureAtTheExternalCall() {
        if (kase.fault() == Fault.STORE_DOWN_UNDER_COMPLETION) {
            storeArm = new StoreArm(Integer.MAX_VALUE, FaultyStoreDataSource.Strike.BEFORE_EXECUTING);
        } else {
            plan.arm(kase.fault());
        }
        Answer first = call(contract.arguments());
        if (!checkFaultStruck(first)) {
            return;
        }
        OperationStatus afterFirst = status();
        long requestsAfterFirst = downstream.requests();
        // The workflow retries with the same key (waiting out a dead worker's lease), then repeats once more.
        Answer retry = callUntilAnswered(contract.arguments());
        Answer duplicate = callUntilAnswered(contract.arguments());
        Expectation e = Expectation.afterFault(policy, kase.fault(), afterFirst);
        expected = e.why();
        checkAfterFault(e, afterFirst, requestsAfterFirst, List.of(retry, duplicate), first.thrown());
    }

    // ---- checks

    private boolean checkFaultStruck(Answer first) {
        boolean struck = kase.fault().side() == Fault.Side.STORE ? store.injected() > 0 : plan.struck() > 0;
        if (!struck) {
            failures.add(ContractMessages.faultNeverStruck(policy, kase.fault()));
            return false;
        }
        if (first.returned()) {
            failures.add(ContractMessages.swallowedFailure(policy, kase.fault()));
            return false;
        }
        long effects = downstream.effects();
        long happened = kase.fault().downstreamCommitted() ? 1 : 0;
        if (effects != happened) {
            failures.add(ContractMessages.uncounted(policy, "effects", effects, happened));
            return false;
        }
        return true;
    }

    private void checkAfterFault(Expectation e, OperationStatus afterFirst, long requestsAfterFirst,
            List<Answer> answers, Throwable firstFailure) {
        Fault fault = kase.fault();
        boolean committed = fault.downstreamCommitted();
        long requests = downstream.requests();
        long effects = downstream.effects();
        long notApplied = metrics.count(policy.name(), Event.RECONCILED_NOT_APPLIED);
        if (effects > 1) {
            if (policy.downstreamKey() && notApplied == 0) {
                failures.add(ContractMessages.downstreamKeyClaimFalse(policy, key, contract.downstreamName(), requests,
                        effects));
            } else if (committed && notApplied > 0) {
                failures.add(ContractMessages.reconcilerAnsweredNotApplied(policy, key, effects));
            } else {
                failures.add(ContractMessages.secondEffect(policy, key, fault, effects));
            }
        } else if (committed && notApplied > 0) {
            failures.add(ContractMessages.reconcilerAnsweredNotApplied(policy, key, effects));
        }
        if (committed && afterFirst == OperationStatus.FAILED_SAFE) {
            failures.add(ContractMessages.safeAlthoughCommitted(policy, key, fault, firstFailure));
        }
        boolean uncertain = afterFirst == OperationStatus.NEEDS_RECONCILIATION || fault.leavesLeaseToExpire();
        if (Expectation.hasRealReconciler(policy) && uncertain && reconciled() == 0) {
            failures.add(ContractMessages.reconcilerNotConsulted(policy, key));
        }
        if (e.newRequests() != null && e.newRequests() == 0 && requests > requestsAfterFirst) {
            failures.add(ContractMessages.secondCall(policy, key, requestsAfterFirst, requests));
        }
        if (e.newRequests() != null && e.newRequests() > 0 && requests == requestsAfterFirst && effects <= 1
                && committed) {
            failures.add(ContractMessages.noResend(policy, key));
        }
        ProviderDouble provider = downstream.providerDouble();
        if (provider != null && new HashSet<>(provider.requestKeys()).size() > 1) {
            failures.add(ContractMessages.resentUnderAnotherKey(policy, key, provider.requestKeys()));
        }
        if (effects <= 1 && effects != e.effects()) {
            failures.add("tool " + policy.name() + " left " + effects + " effects for " + key + " where " + e.effects()
                    + " were expected (" + e.why() + ")");
        }
        expectStatus(e.status());
        for (Answer a : answers) {
            String problem = switch (e.status()) {
                case COMPLETED -> a.returned() ? null : "the retry of " + key + " was answered " + a.describe()
                        + " instead of the result";
                case NEEDS_RECONCILIATION -> a.thrown() instanceof NeedsReconciliationException ? null
                        : "the retry of " + key + " was answered " + a.describe()
                        + " instead of NeedsReconciliationException";
                case FAILED_SAFE -> a.thrown() instanceof OperationFailedException ? null : "the retry of " + key
                        + " was answered " + a.describe() + " instead of OperationFailedException";
                // An expectation after a fault is never one of these (the approval, if any, was granted before).
                case IN_PROGRESS, AWAITING_APPROVAL, APPROVED, DENIED -> null;
            };
            if (problem != null && !failures.contains(problem)) {
                failures.add(problem);
            }
        }
    }

    private void expectCounts(long requests, long effects) {
        if (downstream.requests() != requests) {
            failures.add("requests at the downstream for " + key + ": " + downstream.requests() + ", expected "
                    + requests);
        }
        if (downstream.effects() != effects) {
            failures.add("effects at the downstream for " + key + ": " + downstream.effects() + ", expected " + effects);
        }
    }

    private void expectStatus(OperationStatus status) {
        OperationStatus actual = status();
        if (actual != status) {
            failures.add("the operation " + key + " ended " + (actual == null ? "without a record" : actual.column())
                    + ", expected " + (status == null ? "no record" : status.column()));
        }
    }

    // ---- calls

    private Answer call(Object[] args) {
        AtomicBoolean ran = new AtomicBoolean();
        try (Step ignored = step()) {
            Object result = kind.call(runtime, policy, binding, args, () -> body(args, ran));
            if (!ran.get()) {
                replays.incrementAndGet();
            }
            return new Answer(result, null, ran.get());
        } catch (Throwable t) {
            if (t instanceof OperationInProgressException) {
                inProgressAnswers.incrementAndGet();
            }
            return new Answer(null, t, ran.get());
        } finally {
            store.heal();
        }
    }

    /** Calls until the answer is not "in progress" (a live or not yet expired lease), with a deadline. */
    private Answer callUntilAnswered(Object[] args) {
        long end = System.nanoTime() + ANSWER_DEADLINE.toNanos();
        Answer a = call(args);
        while (a.inProgress() && System.nanoTime() < end) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(25));
            a = call(args);
        }
        return a;
    }

    private Object body(Object[] args, AtomicBoolean ran) throws Throwable {
        ran.set(true);
        executions.incrementAndGet();
        Object value;
        try {
            value = contract.method().invoke(downstream.tool(), args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        StoreArm arm = storeArm;
        if (arm != null) {
            // The next statements of the thread that records this body's outcome are its completion write.
            storeArm = null;
            store.breakOn(kind.completionWriters(), arm.times(), arm.strike());
        }
        return value;
    }

    private Step step() {
        return contract.step() == null ? null : Step.begin(contract.step());
    }

    private OperationStatus status() {
        return runtime.operations().find(policy.store(), policy.name(), key).map(OperationRecord::status).orElse(null);
    }

    private long reconciled() {
        return metrics.count(policy.name(), Event.RECONCILED_APPLIED)
                + metrics.count(policy.name(), Event.RECONCILED_NOT_APPLIED)
                + metrics.count(policy.name(), Event.RECONCILED_UNKNOWN);
    }

    private static boolean sameResult(Object a, Object b) {
        return Objects.equals(a, b) || Objects.equals(String.valueOf(a), String.valueOf(b));
    }

    /** The binding's policy with another lease: dead-worker cases wait for the lease, so it is short there. */
    static ToolPolicy withLease(ToolPolicy p, Duration lease) {
        if (p.lease().compareTo(lease) <= 0) {
            return p;
        }
        ToolPolicy.Builder b = ToolPolicy.builder(p.name()).store(p.store()).keyTemplate(p.keyTemplate())
                .downstreamKey(p.downstreamKey()).retry(p.retry()).notAppliedOn(p.notAppliedOn())
                .effectBoundary(p.effectBoundary()).lease(lease).retention(p.retention())
                .payloadParameters(p.payloadParameters()).approval(p.approval())
                .approvalValidity(p.approvalValidity())
                // Every answer of the binding but the lease: a dropped one would test another tool.
                .transactional(p.transactional()).outbox(p.outbox().toArray(String[]::new));
        p.downstreamRetention().ifPresent(b::downstreamRetention);
        p.reconciler().ifPresent(f -> b.reconciler(f, p.reconcilerName()));
        return b.build();
    }

    /** What one call was answered. */
    private record Answer(Object result, Throwable thrown, boolean executed) {
        boolean returned() {
            return thrown == null;
        }

        boolean inProgress() {
            return thrown instanceof OperationInProgressException;
        }

        String describe() {
            return thrown == null ? "a result" : thrown.getClass().getSimpleName();
        }
    }
}
