package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Approval gates on both databases: a tool declared {@code Approval.REQUIRED} runs its body only
 * after an operator granted the operation, bound to its key and payload hash, once; a denial is
 * final and replayed; a lapsed grant puts the operation back in the queue.
 */
class ApprovalGateTest {

    private static final Map<String, Object> PAYLOAD = Map.of("invoice", "inv_842", "amountCents", 250_000);
    private static final Map<String, Object> CHANGED = Map.of("invoice", "inv_842", "amountCents", 990_000);

    private static ToolPolicy refund(Duration validity) {
        return Policies.downstreamKey("large_refund", Retry.UNCERTAIN).approval(Approval.REQUIRED)
                .approvalValidity(validity).build();
    }

    private static final ToolPolicy REFUND = refund(Duration.ofHours(1));

    private static Object call(IdempotentRuntime runtime, ToolPolicy policy, String key, Map<String, Object> payload,
            FakeProvider provider) {
        return runtime.call(policy, key, payload, String.class, () -> provider.apply(key, "refund"));
    }

    private static String storedHash(TestDatabase db, String key) {
        return db.queryString("SELECT payload_hash FROM tool_operations WHERE operation_key = ?", key);
    }

    @OnBothDatabases
    void theFirstCallRecordsTheRequestAndEveryRetryIsAnsweredPending(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Recorded events = Recorded.on(runtime);
        FakeProvider provider = new FakeProvider();
        try (Step step = Step.begin("refund:inv_842:review_7")) {
            assertThatThrownBy(() -> call(runtime, REFUND, "refund:1", PAYLOAD, provider))
                    .isInstanceOf(ApprovalPendingException.class)
                    .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isTrue())
                    .hasMessageContaining("large_refund").hasMessageContaining("refund:1")
                    .hasMessageNotContaining("inv_842").hasMessageNotContaining("250000");
            assertThatThrownBy(() -> call(runtime, REFUND, "refund:1", PAYLOAD, provider))
                    .isInstanceOf(ApprovalPendingException.class);
        }
        assertThat(provider.invocations()).isZero();
        assertThat(db.status("refund:1")).isEqualTo("awaiting_approval");
        assertThat(db.attemptOutcomes("refund:1")).containsExactly("APPROVAL_REQUESTED", "AWAITING_APPROVAL");

        List<PendingApproval> pending = runtime.approvals().pending("default", null, 0, 10);
        assertThat(pending).hasSize(1);
        PendingApproval request = pending.get(0);
        assertThat(request.tool()).isEqualTo("large_refund");
        assertThat(request.key()).isEqualTo("refund:1");
        assertThat(request.payloadHash()).isEqualTo(storedHash(db, "refund:1"));
        assertThat(request.payloadJson()).contains("inv_842");
        assertThat(request.step()).isEqualTo("refund:inv_842:review_7");
        assertThat(request.requestedBy()).isEqualTo(ProcessHandle.current().pid() + "@"
                + request.requestedBy().substring(request.requestedBy().indexOf('@') + 1));
        assertThat(request.expiredGrant()).isFalse();
        assertThat(runtime.approvals().countPending("default")).containsExactly(Map.entry("large_refund", 1L));
        assertThat(runtime.approvals().pending("default", null, 1, 10)).isEmpty();
        assertThatThrownBy(() -> runtime.approvals().pending("default", null, 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the approval queue's page limit must be 1 to"
                        + " 1000, was 0");
        assertThatThrownBy(() -> runtime.approvals().pending("default", null, -1, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("offset must not be negative");
        assertThat(events.count("requested")).isEqualTo(1);
        assertThat(events.outcomes).containsExactly(CallOutcome.AWAITING_APPROVAL, CallOutcome.AWAITING_APPROVAL);
    }

    @OnBothDatabases
    void aGrantLetsTheNextCallRunTheBodyOnceAndLaterCallsReplay(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Recorded events = Recorded.on(runtime);
        FakeProvider provider = new FakeProvider();
        assertThatThrownBy(() -> call(runtime, REFUND, "refund:2", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);

        db.awaitClaimOlderThan("refund:2", 50);
        runtime.approvals().grant("large_refund", "refund:2", storedHash(db, "refund:2"), "alice", "checked the invoice");
        assertThat(db.status("refund:2")).isEqualTo("approved");
        assertThat(runtime.approvals().pending("default", null, 0, 10)).isEmpty();

        assertThat(call(runtime, REFUND, "refund:2", PAYLOAD, provider)).isEqualTo("done:refund");
        assertThat(call(runtime, REFUND, "refund:2", PAYLOAD, provider)).isEqualTo("done:refund");
        assertThat(provider.invocations()).isEqualTo(1);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status("refund:2")).isEqualTo("completed");
        // The first run is the claim the downstream's retention (and Retry.UNCERTAIN's re-send window) counts from.
        assertThat(db.queryLong("SELECT count(*) FROM tool_operations o JOIN tool_operation_approvals a ON"
                + " a.tool = o.tool AND a.operation_key = o.operation_key WHERE o.operation_key = ? AND o.created_at"
                + " > a.requested_at", "refund:2")).isEqualTo(1);
        assertThat(db.attemptOutcomes("refund:2")).containsExactly("APPROVAL_REQUESTED", "APPROVAL_GRANTED",
                "COMPLETED", "REPLAYED");
        assertThat(db.queryString("SELECT detail FROM tool_operation_attempts WHERE operation_key = ? AND outcome"
                + " = 'APPROVAL_GRANTED'", "refund:2")).isEqualTo("granted by alice: checked the invoice");
        assertThat(events.count("granted")).isEqualTo(1);
    }

    @OnBothDatabases
    void aDenialIsFinalAndReplayedToEveryRetry(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Recorded events = Recorded.on(runtime);
        FakeProvider provider = new FakeProvider();
        assertThatThrownBy(() -> call(runtime, REFUND, "refund:3", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);

        runtime.approvals().deny("large_refund", "refund:3", storedHash(db, "refund:3"), "bob", "duplicate claim");
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> call(runtime, REFUND, "refund:3", PAYLOAD, provider))
                    .isInstanceOf(ApprovalDeniedException.class)
                    .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
        }
        assertThat(provider.invocations()).isZero();
        assertThat(db.status("refund:3")).isEqualTo("denied");
        assertThat(db.attemptOutcomes("refund:3")).containsExactly("APPROVAL_REQUESTED", "APPROVAL_DENIED", "DENIED",
                "DENIED");
        assertThat(db.queryString("SELECT detail FROM tool_operation_attempts WHERE operation_key = ? AND outcome"
                + " = 'APPROVAL_DENIED'", "refund:3")).isEqualTo("denied by bob: duplicate claim");
        assertThatThrownBy(() -> runtime.approvals().grant("large_refund", "refund:3", storedHash(db, "refund:3"),
                "alice", null)).isInstanceOf(IllegalStateException.class).hasMessageContaining("denied");
        assertThat(events.count("denied")).isEqualTo(1);
        assertThat(events.outcomes).endsWith(CallOutcome.APPROVAL_DENIED, CallOutcome.APPROVAL_DENIED);
    }

    @OnBothDatabases
    void changedArgumentsUnderAGrantedKeyAreAConflictAndNeverInheritTheGrant(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        assertThatThrownBy(() -> call(runtime, REFUND, "refund:4", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);
        runtime.approvals().grant("large_refund", "refund:4", storedHash(db, "refund:4"), "alice", null);

        assertThatThrownBy(() -> call(runtime, REFUND, "refund:4", CHANGED, provider))
                .isInstanceOf(PayloadConflictException.class);
        assertThat(provider.invocations()).isZero();
        assertThat(db.status("refund:4")).isEqualTo("approved");

        assertThat(call(runtime, REFUND, "refund:4", PAYLOAD, provider)).isEqualTo("done:refund");
        assertThat(provider.invocations()).isEqualTo(1);
    }

    @OnBothDatabases
    void aDecisionNamingAnotherPayloadHashIsRefusedAndChangesNothing(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        assertThatThrownBy(() -> call(runtime, REFUND, "refund:5", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);
        String otherHash = "0".repeat(64);

        assertThatThrownBy(() -> runtime.approvals().grant("large_refund", "refund:5", otherHash, "alice", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not the stored one")
                .hasMessageNotContaining(storedHash(db, "refund:5"));
        assertThatThrownBy(() -> runtime.approvals().deny("large_refund", "refund:5", otherHash, "alice", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> runtime.approvals().grant("large_refund", "refund:5", storedHash(db, "refund:5"),
                " ", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> runtime.approvals().grant("large_refund", "refund:none", otherHash, "alice", null))
                .isInstanceOf(IllegalStateException.class);
        assertThat(db.status("refund:5")).isEqualTo("awaiting_approval");
        assertThat(db.attemptOutcomes("refund:5")).containsExactly("APPROVAL_REQUESTED");
        assertThatThrownBy(() -> call(runtime, REFUND, "refund:5", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);
        assertThat(provider.invocations()).isZero();
    }

    @OnBothDatabases
    void twoOperatorsDecidingAtOnceRecordOneDecision(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        int rounds = 20;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < rounds; round++) {
                String key = "refund:race:" + round;
                assertThatThrownBy(() -> call(runtime, REFUND, key, PAYLOAD, provider))
                        .isInstanceOf(ApprovalPendingException.class);
                String hash = storedHash(db, key);
                CyclicBarrier together = new CyclicBarrier(2);
                Future<String> alice = pool.submit(() -> decide(together, () -> runtime.approvals()
                        .grant("large_refund", key, hash, "alice", "ok")));
                Future<String> bob = pool.submit(() -> decide(together, () -> runtime.approvals()
                        .deny("large_refund", key, hash, "bob", "no")));
                List<String> answers = List.of(alice.get(30, TimeUnit.SECONDS), bob.get(30, TimeUnit.SECONDS));
                assertThat(answers).as("round " + round).containsOnlyOnce("decided");
                assertThat(answers).as("round " + round).contains("refused");
                db.flushAttemptLogs();
                assertThat(db.queryLong("SELECT count(*) FROM tool_operation_attempts WHERE operation_key = ? AND"
                        + " outcome IN ('APPROVAL_GRANTED', 'APPROVAL_DENIED')", key)).isEqualTo(1);
                String status = db.status(key);
                String decided = answers.get(0).equals("decided") ? "approved" : "denied";
                assertThat(status).as("round " + round).isEqualTo(decided);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(provider.invocations()).isZero();
    }

    private static String decide(CyclicBarrier together, Runnable decision) throws Exception {
        together.await(30, TimeUnit.SECONDS);
        try {
            decision.run();
            return "decided";
        } catch (IllegalStateException e) {
            return "refused";
        }
    }

    @OnBothDatabases
    void aGrantRacingRetriesRunsTheBodyExactlyOnce(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        int rounds = 10;
        int callers = 4;
        ExecutorService pool = Executors.newFixedThreadPool(callers + 1);
        try {
            for (int round = 0; round < rounds; round++) {
                String key = "refund:retry:" + round;
                assertThatThrownBy(() -> call(runtime, REFUND, key, PAYLOAD, provider))
                        .isInstanceOf(ApprovalPendingException.class);
                String hash = storedHash(db, key);
                CyclicBarrier together = new CyclicBarrier(callers + 1);
                Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
                List<Future<?>> all = new ArrayList<>();
                all.add(pool.submit(() -> {
                    together.await(30, TimeUnit.SECONDS);
                    runtime.approvals().grant("large_refund", key, hash, "alice", null);
                    return null;
                }));
                for (int i = 0; i < callers; i++) {
                    all.add(pool.submit(() -> {
                        together.await(30, TimeUnit.SECONDS);
                        for (int n = 0; n < 5; n++) {
                            String answer;
                            try {
                                answer = String.valueOf(call(runtime, REFUND, key, PAYLOAD, provider));
                            } catch (IdempotencyException e) {
                                answer = e.getClass().getSimpleName();
                            }
                            answers.computeIfAbsent(answer, a -> new AtomicInteger()).incrementAndGet();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : all) {
                    f.get(60, TimeUnit.SECONDS);
                }
                assertThat(answers.keySet()).as("round " + round).isSubsetOf("done:refund", "ApprovalPendingException",
                        "OperationInProgressException");
                // Whatever the race did, the next call after the grant ends in the one execution.
                assertThat(call(runtime, REFUND, key, PAYLOAD, provider)).isEqualTo("done:refund");
                assertThat(provider.effects()).as("round " + round).isEqualTo(round + 1);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(provider.invocations()).isEqualTo(rounds);
    }

    @OnBothDatabases
    void aGrantThatLapsesUnusedPutsTheOperationBackInTheQueue(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Recorded events = Recorded.on(runtime);
        FakeProvider provider = new FakeProvider();
        ToolPolicy shortGrant = refund(Duration.ofSeconds(1));
        assertThatThrownBy(() -> call(runtime, shortGrant, "refund:6", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);
        runtime.approvals().grant("large_refund", "refund:6", storedHash(db, "refund:6"), "alice", null);
        db.awaitLeaseExpired("refund:6");

        List<PendingApproval> lapsed = runtime.approvals().pending("default", "large_refund", 0, 10);
        assertThat(lapsed).singleElement().satisfies(p -> {
            assertThat(p.expiredGrant()).isTrue();
            assertThat(p.decidedBy()).isEqualTo("alice");
        });
        assertThatThrownBy(() -> call(runtime, shortGrant, "refund:6", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);
        assertThat(provider.invocations()).isZero();
        assertThat(db.status("refund:6")).isEqualTo("awaiting_approval");
        assertThat(runtime.approvals().pending("default", null, 0, 10)).singleElement()
                .satisfies(p -> assertThat(p.expiredGrant()).isTrue());
        assertThat(events.count("expired")).isEqualTo(1);

        runtime.approvals().grant("large_refund", "refund:6", storedHash(db, "refund:6"), "carol", "again");
        assertThat(call(runtime, shortGrant, "refund:6", PAYLOAD, provider)).isEqualTo("done:refund");
        assertThat(provider.invocations()).isEqualTo(1);
        assertThat(db.attemptOutcomes("refund:6")).containsExactly("APPROVAL_REQUESTED", "APPROVAL_GRANTED",
                "APPROVAL_EXPIRED", "AWAITING_APPROVAL", "APPROVAL_GRANTED", "COMPLETED");
    }

    /**
     * Issue 48: a grant that lapsed unused and is then decided again, with no call or queue read
     * in between, leaves its expiry in the history before the new decision: there is never a
     * grant followed by a second grant or by a denial without it.
     */
    @OnBothDatabases
    void aLapsedGrantDecidedAgainRecordsItsExpiryBeforeTheNewDecision(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Recorded events = Recorded.on(runtime);
        FakeProvider provider = new FakeProvider();
        ToolPolicy shortGrant = refund(Duration.ofSeconds(1));
        for (String key : List.of("refund:10", "refund:11")) {
            assertThatThrownBy(() -> call(runtime, shortGrant, key, PAYLOAD, provider))
                    .isInstanceOf(ApprovalPendingException.class);
            runtime.approvals().grant("large_refund", key, storedHash(db, key), "alice", null);
            db.awaitLeaseExpired(key);
        }
        runtime.approvals().grant("large_refund", "refund:10", storedHash(db, "refund:10"), "carol", "again");
        runtime.approvals().deny("large_refund", "refund:11", storedHash(db, "refund:11"), "carol", "too late");

        assertThat(db.attemptOutcomes("refund:10")).containsExactly("APPROVAL_REQUESTED", "APPROVAL_GRANTED",
                "APPROVAL_EXPIRED", "APPROVAL_GRANTED");
        assertThat(db.attemptOutcomes("refund:11")).containsExactly("APPROVAL_REQUESTED", "APPROVAL_GRANTED",
                "APPROVAL_EXPIRED", "APPROVAL_DENIED");
        assertThat(db.status("refund:10")).isEqualTo("approved");
        assertThat(db.status("refund:11")).isEqualTo("denied");
        assertThat(events.count("expired")).isEqualTo(2);
        assertThat(provider.invocations()).isZero();
    }

    /**
     * Issue 48: the queue's read and the purge record a lapse they are the first to know of, once:
     * a later read, call or decision adds no second expiry.
     */
    @OnBothDatabases
    void theQueuesReadAndThePurgeRecordALapsedGrantOnce(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy shortGrant = refund(Duration.ofSeconds(1));
        for (String key : List.of("refund:12", "refund:13")) {
            assertThatThrownBy(() -> call(runtime, shortGrant, key, PAYLOAD, provider))
                    .isInstanceOf(ApprovalPendingException.class);
            runtime.approvals().grant("large_refund", key, storedHash(db, key), "alice", null);
            db.awaitLeaseExpired(key);
        }
        runtime.operations().purgeExpired("default");
        assertThat(db.status("refund:12")).isEqualTo("awaiting_approval");
        assertThat(db.attemptOutcomes("refund:12")).containsExactly("APPROVAL_REQUESTED", "APPROVAL_GRANTED",
                "APPROVAL_EXPIRED");
        assertThat(runtime.approvals().pending("default", null, 0, 10)).hasSize(2)
                .allSatisfy(p -> assertThat(p.expiredGrant()).isTrue());
        assertThat(runtime.approvals().pending("default", null, 0, 10)).hasSize(2);
        assertThatThrownBy(() -> call(runtime, shortGrant, "refund:13", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);
        for (String key : List.of("refund:12", "refund:13")) {
            assertThat(db.attemptOutcomes(key)).as(key).filteredOn("APPROVAL_EXPIRED"::equals).hasSize(1);
        }
        assertThat(db.attemptOutcomes("refund:13")).containsExactly("APPROVAL_REQUESTED", "APPROVAL_GRANTED",
                "APPROVAL_EXPIRED", "AWAITING_APPROVAL");
    }

    /**
     * A reviewer whose role may only read still gets the queue, the lapsed grant marked expired;
     * it cannot record the lapse, which the next read with a role that may write records, once.
     */
    @OnBothDatabases
    void aRoleThatMayOnlyReadStillReadsTheQueueAndTheLapseIsRecordedLater(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy shortGrant = refund(Duration.ofSeconds(1));
        assertThatThrownBy(() -> call(runtime, shortGrant, "refund:15", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);
        runtime.approvals().grant("large_refund", "refund:15", storedHash(db, "refund:15"), "alice", null);
        db.awaitLeaseExpired("refund:15");

        String reader = "idem_reader_" + Long.toHexString(System.nanoTime());
        String url;
        if (db.kind() == io.idempotent.runtime.testing.Database.H2) {
            db.update("CREATE USER " + reader + " PASSWORD 'read-only'");
            db.update("GRANT SELECT ON tool_operations, tool_operation_approvals, tool_operation_outbox,"
                    + " tool_operation_attempt_log, tool_operation_attempts TO " + reader);
            // The in-memory database, its users included, ends with the test; its URL's settings need an admin.
            url = db.url().replaceAll(";.*$", "");
        } else {
            db.update("CREATE ROLE " + reader + " LOGIN PASSWORD 'read-only'");
            db.update("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + reader);
            db.onCleanUp(() -> {
                db.update("DROP OWNED BY " + reader);
                db.update("DROP ROLE " + reader);
            });
            url = db.url().replaceAll("([?&])user=[^&]*&?", "$1");
        }
        try (IdempotentRuntime readOnly = IdempotentRuntime.builder().store("default", url, reader, "read-only")
                .schema(SchemaMode.VALIDATE).build()) {
            assertThat(readOnly.approvals().pending("default", null, 0, 10)).singleElement()
                    .satisfies(p -> assertThat(p.expiredGrant()).isTrue());
        }
        assertThat(db.status("refund:15")).isEqualTo("approved");
        assertThat(db.attemptOutcomes("refund:15")).doesNotContain("APPROVAL_EXPIRED");

        assertThat(runtime.approvals().pending("default", null, 0, 10)).singleElement()
                .satisfies(p -> assertThat(p.expiredGrant()).isTrue());
        assertThat(db.status("refund:15")).isEqualTo("awaiting_approval");
        assertThat(db.attemptOutcomes("refund:15")).containsExactly("APPROVAL_REQUESTED", "APPROVAL_GRANTED",
                "APPROVAL_EXPIRED");
    }

    /** A call is the first to know of a lapse: it records the expiry and is answered pending. */
    @OnBothDatabases
    void aCallMeetingALapsedGrantRecordsItsExpiryOnce(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Recorded events = Recorded.on(runtime);
        FakeProvider provider = new FakeProvider();
        ToolPolicy shortGrant = refund(Duration.ofSeconds(1));
        assertThatThrownBy(() -> call(runtime, shortGrant, "refund:14", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);
        runtime.approvals().grant("large_refund", "refund:14", storedHash(db, "refund:14"), "alice", null);
        db.awaitLeaseExpired("refund:14");
        assertThatThrownBy(() -> call(runtime, shortGrant, "refund:14", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);
        assertThat(db.attemptOutcomes("refund:14")).containsExactly("APPROVAL_REQUESTED", "APPROVAL_GRANTED",
                "APPROVAL_EXPIRED", "AWAITING_APPROVAL");
        assertThat(events.count("expired")).isEqualTo(1);
        assertThat(provider.invocations()).isZero();
    }

    @OnBothDatabases
    void aRequestOutlivesItsRuntimeAndAnotherRuntimeGrantsAndRunsIt(TestDatabase db) {
        IdempotentRuntime first = db.runtime();
        FakeProvider provider = new FakeProvider();
        assertThatThrownBy(() -> call(first, REFUND, "refund:7", PAYLOAD, provider))
                .isInstanceOf(ApprovalPendingException.class);
        first.close();

        IdempotentRuntime operator = db.runtime();
        operator.approvals().grant("large_refund", "refund:7", storedHash(db, "refund:7"), "alice", null);
        operator.close();

        IdempotentRuntime next = db.runtime();
        assertThat(call(next, REFUND, "refund:7", PAYLOAD, provider)).isEqualTo("done:refund");
        assertThat(call(next, REFUND, "refund:7", PAYLOAD, provider)).isEqualTo("done:refund");
        assertThat(provider.invocations()).isEqualTo(1);
    }

    @OnBothDatabases
    void aDeniedOperationIsPurgedWithItsRequestAfterItsRetention(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy brief = Policies.downstreamKey("brief_refund", Retry.UNCERTAIN).approval(Approval.REQUIRED)
                .lease(Duration.ofSeconds(1)).retention(Duration.ofSeconds(1)).build();
        assertThatThrownBy(() -> runtime.call(brief, "refund:8", PAYLOAD, String.class,
                () -> provider.apply("refund:8", "refund"))).isInstanceOf(ApprovalPendingException.class);
        assertThatThrownBy(() -> runtime.call(brief, "refund:9", PAYLOAD, String.class,
                () -> provider.apply("refund:9", "refund"))).isInstanceOf(ApprovalPendingException.class);
        runtime.approvals().deny("brief_refund", "refund:8", storedHash(db, "refund:8"), "bob", null);
        TestDatabase.await(() -> db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ? AND"
                + " expires_at <= CURRENT_TIMESTAMP", "refund:9") == 1
                && db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key = ? AND expires_at <="
                        + " CURRENT_TIMESTAMP", "refund:8") == 1, Duration.ofSeconds(20), "the retention to pass");

        assertThat(runtime.operations().purgeExpired("default")).isEqualTo(1);
        assertThat(db.status("refund:8")).isNull();
        assertThat(db.queryLong("SELECT count(*) FROM tool_operation_approvals WHERE operation_key = 'refund:8'"))
                .isZero();
        // Awaiting a person is not an ending: the request is kept however old.
        assertThat(db.status("refund:9")).isEqualTo("awaiting_approval");
        assertThat(runtime.approvals().countPending("default")).containsExactly(Map.entry("brief_refund", 1L));
    }

    @OnBothDatabases
    void anAsynchronousToolWaitsForItsGrantTooAndItsStageFailsPendingUntilThen(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        java.util.function.Supplier<java.util.concurrent.CompletableFuture<String>> body =
                () -> java.util.concurrent.CompletableFuture.completedFuture(provider.apply("refund:10", "refund"));
        java.util.concurrent.CompletableFuture<String> first;
        try (Step step = Step.begin("refund:inv_842:async")) {
            first = io.idempotent.runtime.internal.RuntimeAccess.engine(runtime).async().call(REFUND, "refund:10",
                    PAYLOAD, String.class, null, body);
        }
        assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(ApprovalPendingException.class);
        assertThat(runtime.approvals().pending("default", null, 0, 10)).singleElement()
                .satisfies(p -> assertThat(p.step()).isEqualTo("refund:inv_842:async"));
        runtime.approvals().grant("large_refund", "refund:10", storedHash(db, "refund:10"), "alice", null);

        for (int i = 0; i < 2; i++) {
            assertThat(io.idempotent.runtime.internal.RuntimeAccess.engine(runtime).async().call(REFUND, "refund:10",
                    PAYLOAD, String.class, null, body).get(30, TimeUnit.SECONDS)).isEqualTo("done:refund");
        }
        assertThat(provider.invocations()).isEqualTo(1);
    }

    /** The approval events and call outcomes a runtime reported. */
    private static final class Recorded implements MetricsListener {
        private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        private final List<CallOutcome> outcomes = new CopyOnWriteArrayList<>();

        static Recorded on(IdempotentRuntime runtime) {
            Recorded recorded = new Recorded();
            runtime.addMetricsListener(recorded);
            return recorded;
        }

        int count(String event) {
            AtomicInteger n = counts.get(event);
            return n == null ? 0 : n.get();
        }

        private void add(String event) {
            counts.computeIfAbsent(event, e -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void approvalRequested(String tool) {
            add("requested");
        }

        @Override
        public void approvalGranted(String tool) {
            add("granted");
        }

        @Override
        public void approvalDenied(String tool) {
            add("denied");
        }

        @Override
        public void approvalExpired(String tool) {
            add("expired");
        }

        @Override
        public void answered(String tool, String key, CallOutcome outcome) {
            outcomes.add(outcome);
        }
    }
}
