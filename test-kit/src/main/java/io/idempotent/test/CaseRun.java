package io.idempotent.test;

import io.idempotent.runtime.CountingMetrics;
import io.idempotent.runtime.CountingMetrics.Event;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationFailedException;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolPolicy;
import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
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
 * same key, a duplicate) and checks what they did against the {@link Expectation}.
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

    static List<Case> cases() {
        return CASES;
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
                switch (kase.test()) {
                    case DUPLICATE_AFTER_COMPLETION -> duplicateAfterCompletion();
                    case CHANGED_PAYLOAD -> changedPayload();
                    case CONCURRENT_CALLERS -> concurrentCallers();
                    case FAILURE_AT_THE_EXTERNAL_CALL -> failureAtTheExternalCall();
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
                .payloadParameters(p.payloadParameters());
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
