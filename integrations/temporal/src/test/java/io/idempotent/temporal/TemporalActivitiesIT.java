package io.idempotent.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.IdempotentRuntime;
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
        if (taskQueue == null) {
            taskQueue = "desk-" + UUID.randomUUID();
        }
        WorkerFactory factory = WorkerFactory.newInstance(env.getWorkflowClient(),
                WorkerFactoryOptions.newBuilder().setWorkerInterceptors(interceptors).build());
        Worker worker = factory.newWorker(taskQueue, WorkerOptions.newBuilder()
                .setStickyQueueScheduleToStartTimeout(Duration.ofSeconds(1)).build());
        worker.registerWorkflowImplementationTypes(RefundDeskImpl.class);
        worker.registerActivitiesImplementations(activities);
        factory.start();
        factories.add(factory);
        return factory;
    }

    private RefundDesk desk(String workflowId) {
        return env.getWorkflowClient().newWorkflowStub(RefundDesk.class, WorkflowOptions.newBuilder()
                .setTaskQueue(taskQueue).setWorkflowId(workflowId).setWorkflowExecutionTimeout(Duration.ofMinutes(2))
                .build());
    }

    private static Object idempotent(Ledger ledger) {
        return new IdempotentRefundActivities(ledger);
    }

    private static void useStore(TestDatabase db) {
        IdempotentRuntime.setGlobal(db.runtime());
    }

    private static List<String> keys(TestDatabase db) {
        List<String> keys = new ArrayList<>();
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
}
