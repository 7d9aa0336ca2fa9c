package io.idempotent.examples.temporal;

import io.idempotent.runtime.Step;
import io.temporal.activity.ActivityOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/**
 * Deterministic workflow code. The step is the business decision, the approval: it survives a
 * reset or a re-run of the workflow, so the same approval never refunds twice, and it reaches
 * the activity through IdempotentWorkerInterceptor.
 */
public class RefundDeskImpl implements RefundDesk {

    private final RefundActivities activities = Workflow.newActivityStub(RefundActivities.class,
            ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(30)).build());

    @Override
    public Refund refund(String invoiceId, long amountCents, String approvalId) {
        try (Step step = Step.begin("approved:" + approvalId)) {
            return activities.issueRefund(invoiceId, amountCents);
        }
    }
}
