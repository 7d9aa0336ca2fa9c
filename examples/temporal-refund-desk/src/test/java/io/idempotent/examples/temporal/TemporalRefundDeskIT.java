package io.idempotent.examples.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.testing.AttachedAgent;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The refund desk on Temporal's in-process test server, with the agent attached (its embedded H2
 * store). Each workflow run below is a new run: an operator re-running the desk for the same
 * approval, as after a reset.
 */
class TemporalRefundDeskIT {

    private TestWorkflowEnvironment env;
    private Payments payments;

    @BeforeAll
    static void attachTheAgent() throws Exception {
        AttachedAgent.attach();
    }

    @BeforeEach
    void startTheDesk() {
        env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
                .setWorkerFactoryOptions(RefundDeskWorker.factoryOptions()).setUseTimeskipping(false).build());
        payments = new Payments();
        RefundDeskWorker.register(env.getWorkerFactory(), payments);
        env.start();
    }

    @AfterEach
    void stopTheDesk() {
        env.close();
    }

    private Refund refund(String invoiceId, long amountCents, String approvalId) {
        return env.getWorkflowClient().newWorkflowStub(RefundDesk.class, WorkflowOptions.newBuilder()
                .setTaskQueue(RefundDeskWorker.TASK_QUEUE).setWorkflowId("desk-" + UUID.randomUUID()).build())
                .refund(invoiceId, amountCents, approvalId);
    }

    @Test
    void theSameApprovalRefundsOnceAcrossRunsAndAnotherApprovalRefundsAgain() {
        String approval = "appr_" + UUID.randomUUID();

        Refund first = refund("inv_842", 1250, approval);
        Refund again = refund("inv_842", 1250, approval);
        Refund other = refund("inv_842", 1250, approval + "_second");

        assertThat(again).isEqualTo(first);
        assertThat(other.refundId()).isNotEqualTo(first.refundId());
        assertThat(payments.refunds()).isEqualTo(2);
    }

    @Test
    void aChangedAmountUnderTheSameApprovalFailsTheWorkflowWithTheConflictsTypeName() {
        String approval = "appr_" + UUID.randomUUID();
        refund("inv_843", 1250, approval);

        assertThatThrownBy(() -> refund("inv_843", 9900, approval)).isInstanceOf(WorkflowFailedException.class)
                .rootCause().isInstanceOfSatisfying(ApplicationFailure.class, failure -> assertThat(failure.getType())
                        .isEqualTo("io.idempotent.runtime.PayloadConflictException"));
        assertThat(payments.refunds()).isEqualTo(1);
    }
}
