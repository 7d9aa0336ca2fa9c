package io.idempotent.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.testing.AttachedAgent;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real Temporal workers against Temporal's in-process test server (real time, no time skipping),
 * with the agent attached and the tool's store on H2 and on PostgreSQL.
 *
 * <p>No field or signature of this class names a tool class: JUnit would load it before the agent
 * attaches.
 */
class TemporalActivitiesIT {

    private static final String TOOL = "temporal_refund";

    private static TestWorkflowEnvironment env;
    private final List<WorkerFactory> factories = new ArrayList<>();
    private String taskQueue;

    @BeforeAll
    static void startTheTestServer() throws Exception {
        AttachedAgent.attach();
        env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder().setUseTimeskipping(false)
                .build());
    }

    @AfterAll
    static void stopTheTestServer() {
        env.close();
    }

    @AfterEach
    void stopTheWorkers() {
        for (WorkerFactory factory : factories) {
            factory.shutdownNow();
            factory.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** Starts a worker factory with {@code interceptors} serving the desk and {@code activities}. */
    private WorkerFactory worker(Object activities, WorkerInterceptor... interceptors) {
        return worker(true, activities, interceptors);
    }

    /** Starts a worker factory; one that does not cache workflows replays each from its history. */
    private WorkerFactory worker(boolean cached, Object activities, WorkerInterceptor... interceptors) {
        if (taskQueue == null) {
            taskQueue = "desk-" + UUID.randomUUID();
        }
        WorkerFactoryOptions.Builder options = WorkerFactoryOptions.newBuilder().setWorkerInterceptors(interceptors);
        WorkerFactory factory = WorkerFactory.newInstance(env.getWorkflowClient(),
                (cached ? options : options.setWorkflowCacheSize(0)).build());
        // A busy build machine loads classes slowly: Temporal's 1 s deadlock detector would fail
        // the first workflow task and cost a retry.
        Worker worker = factory.newWorker(taskQueue, WorkerOptions.newBuilder()
                .setStickyQueueScheduleToStartTimeout(Duration.ofSeconds(1))
                .setDefaultDeadlockDetectionTimeout(10_000).build());
        worker.registerWorkflowImplementationTypes(RefundDeskImpl.class, PayoutDeskImpl.class);
        worker.registerActivitiesImplementations(activities);
        factory.start();
        factories.add(factory);
        return factory;
    }

    private RefundDesk desk(String workflowId) {
        return env.getWorkflowClient().newWorkflowStub(RefundDesk.class, WorkflowOptions.newBuilder()
                .setTaskQueue(taskQueue).setWorkflowId(workflowId).setWorkflowExecutionTimeout(Duration.ofMinutes(1))
                .build());
    }

    private static Object idempotent(Ledger ledger) {
        return new IdempotentRefundActivities(ledger);
    }

    private static IdempotentRuntime useStore(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        IdempotentRuntime.setGlobal(runtime);
        return runtime;
    }

    private static List<String> keys(TestDatabase db) {
        List<String> keys = new ArrayList<>();
        if (!db.tableExists("tool_operations")) {
            return keys; // no call has claimed a key yet
        }
        try (var c = db.connect(); var st = c.prepareStatement(
                "SELECT operation_key FROM tool_operations WHERE tool = ? ORDER BY created_at, operation_key")) {
            st.setString(1, TOOL);
            try (var rs = st.executeQuery()) {
                while (rs.next()) {
                    keys.add(rs.getString(1));
                }
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return keys;
    }

    @OnBothDatabases
    void aReplyLostAfterTheEffectIsReplayedOnTemporalsRetry(TestDatabase db) {
        useStore(db);
        Ledger ledger = new Ledger();
        worker(idempotent(ledger), new LostReplyInterceptor(), new IdempotentWorkerInterceptor());
        RefundDesk desk = desk("lost-reply-" + UUID.randomUUID());

        WorkflowExecution run = WorkflowClient.start(desk::run, DeskPlan.refund("inv_1", 500));
        List<String> answers = WorkflowStub.fromTyped(desk).getResult(List.class);

        assertThat(answers).containsExactly("pay_1_inv_1_500");
        assertThat(ledger.effects()).isEqualTo(1);
        List<String> keys = keys(db);
        assertThat(keys).hasSize(1);
        // The step of the run: its run id and the activity id, never the attempt number.
        assertThat(keys.get(0)).startsWith("refund:temporal:run:" + run.getRunId() + ":activity:");
        assertThat(db.status(keys.get(0))).isEqualTo("completed");
        assertThat(db.attemptOutcomes(keys.get(0))).containsExactly("COMPLETED", "REPLAYED");
    }

    @Test
    void withoutTheInterceptorTheSameLostReplyPaysTwice() {
        Ledger ledger = new Ledger();
        worker(new UnprotectedRefundActivities(ledger), new LostReplyInterceptor());
        RefundDesk desk = desk("lost-reply-unprotected-" + UUID.randomUUID());

        assertThat(desk.run(DeskPlan.refund("inv_1", 500))).containsExactly("pay_2_inv_1_500");
        assertThat(ledger.effects()).isEqualTo(2);
    }

    @OnBothDatabases
    void anAttemptAfterAStartToCloseTimeoutIsToldInProgressWhileTheFirstRunsAndItsRetryReplays(TestDatabase db) {
        useStore(db);
        Ledger ledger = Ledger.holdingReplies();
        worker(idempotent(ledger), new IdempotentWorkerInterceptor());
        RefundDesk desk = desk("timeout-" + UUID.randomUUID());

        // Attempt 1 pays and then holds its reply past its 1 s start-to-close timeout; Temporal
        // starts attempt 2 while attempt 1 still runs on its worker thread.
        WorkflowClient.start(desk::run, DeskPlan.refund("inv_2", 700).startToCloseMillis(1000).maxAttempts(200));
        TestDatabase.await(() -> keys(db).size() == 1 && db.attemptOutcomes(keys(db).get(0)).contains("IN_PROGRESS"),
                Duration.ofSeconds(30), "an attempt told in progress");
        assertThat(ledger.effects()).isEqualTo(1);
        ledger.releaseReplies();
        List<String> answers = WorkflowStub.fromTyped(desk).getResult(List.class);

        assertThat(answers).containsExactly("pay_1_inv_2_700");
        assertThat(ledger.effects()).isEqualTo(1);
        String key = keys(db).get(0);
        assertThat(db.status(key)).isEqualTo("completed");
        List<String> outcomes = db.attemptOutcomes(key);
        assertThat(outcomes).containsOnlyOnce("COMPLETED").contains("IN_PROGRESS").last().isEqualTo("REPLAYED");
    }

    @OnBothDatabases
    void aWorkflowReplayedFromItsHistoryOnAnotherWorkerRepeatsNoActivity(TestDatabase db) throws Exception {
        useStore(db);
        Ledger ledger = new Ledger();
        worker(idempotent(ledger), new IdempotentWorkerInterceptor());
        String workflowId = "replay-" + UUID.randomUUID();
        assertThat(desk(workflowId).run(DeskPlan.refund("inv_3", 500, 700).inStep("invoice_3:approval_1")))
                .containsExactly("pay_1_inv_3_500", "failure:io.idempotent.runtime.PayloadConflictException");

        // Another worker, with the interceptor, replays the whole history, as a restarted worker
        // does: the workflow code runs again and sets its step again, the activities answer from
        // the history, and the step header does not make the replay non-deterministic.
        WorkerFactory other = WorkerFactory.newInstance(env.getWorkflowClient(),
                WorkerFactoryOptions.newBuilder().setWorkerInterceptors(new IdempotentWorkerInterceptor()).build());
        factories.add(other);
        Worker replayer = other.newWorker("replay-" + UUID.randomUUID());
        replayer.registerWorkflowImplementationTypes(RefundDeskImpl.class);
        replayer.registerActivitiesImplementations(idempotent(ledger));
        RefundDeskImpl.REPLAYED_CALLS.set(0);
        WorkflowReplayer.replayWorkflowExecution(env.getWorkflowClient().fetchHistory(workflowId), replayer);

        assertThat(RefundDeskImpl.REPLAYED_CALLS.get()).as("refund calls replayed from the history").isEqualTo(2);
        assertThat(ledger.effects()).isEqualTo(1);
        assertThat(db.attemptOutcomes("refund:invoice_3:approval_1")).containsExactly("COMPLETED", "PAYLOAD_CONFLICT");
    }

    @OnBothDatabases
    void aRunContinuedAsNewWithTheSameActivitiesMakesDistinctOperations(TestDatabase db) {
        useStore(db);
        Ledger ledger = new Ledger();
        worker(idempotent(ledger), new IdempotentWorkerInterceptor());
        RefundDesk desk = desk("continue-" + UUID.randomUUID());

        WorkflowExecution firstRun = WorkflowClient.start(desk::run, DeskPlan.refund("inv_4", 500).continuedAsNew(1));
        List<String> answers = WorkflowStub.fromTyped(desk).getResult(List.class);

        // The second run calls the same activity with the same arguments: two intended refunds,
        // told apart by their runs.
        assertThat(answers).containsExactly("pay_2_inv_4_500");
        assertThat(ledger.effects()).isEqualTo(2);
        List<String> keys = keys(db);
        assertThat(keys).hasSize(2).allMatch(k -> k.startsWith("refund:temporal:run:"))
                .anyMatch(k -> k.startsWith("refund:temporal:run:" + firstRun.getRunId() + ":activity:"))
                .anyMatch(k -> !k.contains(firstRun.getRunId()));
    }

    @OnBothDatabases
    void aChangedArgumentUnderTheWorkflowsStepFailsOnceAndTheWorkflowSeesTheTypeName(TestDatabase db) {
        useStore(db);
        Ledger ledger = new Ledger();
        worker(idempotent(ledger), new IdempotentWorkerInterceptor());

        List<String> answers = desk("conflict-" + UUID.randomUUID())
                .run(DeskPlan.refund("inv_5", 500, 900).inStep("invoice_5:approval_1"));

        assertThat(answers).containsExactly("pay_1_inv_5_500",
                "failure:io.idempotent.runtime.PayloadConflictException");
        assertThat(ledger.effects()).isEqualTo(1);
        assertThat(keys(db)).containsExactly("refund:invoice_5:approval_1");
        // Non-retryable: Temporal asked once, not ten times.
        assertThat(db.attemptOutcomes("refund:invoice_5:approval_1")).containsExactly("COMPLETED", "PAYLOAD_CONFLICT");
    }

    @OnBothDatabases
    void aLocalActivityRunsInTheWorkflowsStepAndReplaysAfterALostReply(TestDatabase db) {
        useStore(db);
        Ledger ledger = new Ledger();
        worker(idempotent(ledger), new LostReplyInterceptor(), new IdempotentWorkerInterceptor());

        List<String> answers = desk("local-" + UUID.randomUUID())
                .run(DeskPlan.refund("inv_7", 500).inStep("invoice_7:approval_1").asLocalActivities());

        assertThat(answers).containsExactly("pay_1_inv_7_500");
        assertThat(ledger.effects()).isEqualTo(1);
        assertThat(db.attemptOutcomes("refund:invoice_7:approval_1")).containsExactly("COMPLETED", "REPLAYED");
    }

    @OnBothDatabases
    void withWorkflowStepsOnlyAToolCalledWithoutOneIsRefusedBeforeItsBody(TestDatabase db) {
        useStore(db);
        Ledger ledger = new Ledger();
        worker(idempotent(ledger), new IdempotentWorkerInterceptor(ActivityStepScope.WORKFLOW_STEP_ONLY));

        List<String> answers = desk("no-step-" + UUID.randomUUID()).run(DeskPlan.refund("inv_8", 500));

        assertThat(answers).containsExactly("failure:io.idempotent.runtime.MissingOperationKeyException");
        assertThat(ledger.effects()).isZero();
        assertThat(keys(db)).isEmpty();
    }

    @OnBothDatabases
    void manualCompletionInsideAToolIsRefusedBeforeTheEffect(TestDatabase db) {
        useStore(db);
        Ledger ledger = new Ledger();
        worker(new ManualCompletionActivities(ledger), new IdempotentWorkerInterceptor());

        List<String> answers = desk("manual-" + UUID.randomUUID()).run(DeskPlan.refund("inv_9", 500));

        assertThat(answers).containsExactly("failure:" + ManualCompletionGuard.REFUSED);
        assertThat(ledger.effects()).isZero();
    }

    @OnBothDatabases
    void aPendingApprovalWaitsForTheApproversSignalWithoutRetriesThenPaysOnce(TestDatabase db) {
        IdempotentRuntime runtime = useStore(db);
        Ledger ledger = new Ledger();
        worker(new PayoutActivities(ledger), new IdempotentWorkerInterceptor());
        String workflowId = "payout-" + UUID.randomUUID();
        PayoutDesk desk = env.getWorkflowClient().newWorkflowStub(PayoutDesk.class, WorkflowOptions.newBuilder()
                .setTaskQueue(taskQueue).setWorkflowId(workflowId).setWorkflowExecutionTimeout(Duration.ofMinutes(1))
                .build());
        WorkflowClient.start(desk::pay, "inv_10", 90_000L, "payout:inv_10:board_3");
        String key = "payout:payout:inv_10:board_3";

        TestDatabase.await(() -> !runtime.approvals().pending("default", "temporal_payout", 0, 10).isEmpty(),
                Duration.ofSeconds(30), "the payout in the approval queue");
        PendingApproval pending = runtime.approvals().pending("default", "temporal_payout", 0, 10).get(0);
        assertThat(pending.key()).isEqualTo(key);
        assertThat(ledger.effects()).isZero();
        runtime.approvals().grant("temporal_payout", key, pending.payloadHash(), "alice", "board approved");
        desk.decided();

        assertThat(WorkflowStub.fromTyped(desk).getResult(String.class)).isEqualTo("pay_1_inv_10_90000");
        assertThat(ledger.effects()).isEqualTo(1);
        // Asked once before the grant (no retry spent while the person thought), once after.
        assertThat(db.attemptOutcomes(key)).containsOnlyOnce("APPROVAL_REQUESTED").containsOnlyOnce("COMPLETED")
                .doesNotContain("AWAITING_APPROVAL");
    }
}
