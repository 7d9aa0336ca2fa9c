package io.idempotent.temporal;

import io.idempotent.runtime.ApprovalPendingException;
import io.idempotent.runtime.Step;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/**
 * The pattern of docs/durable-engines.md, "Waiting for an approval": the retry policy does not
 * retry a pending approval; the workflow waits for the approver's signal, then calls again with
 * the same step and arguments.
 */
public class PayoutDeskImpl implements PayoutDesk {

    private boolean decided;

    @Override
    public String pay(String invoiceId, long amountCents, String step) {
        RefundActivities activities = Workflow.newActivityStub(RefundActivities.class, ActivityOptions.newBuilder()
                .setStartToCloseTimeout(Duration.ofSeconds(20))
                .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofMillis(100))
                        .setDoNotRetry(ApprovalPendingException.class.getName()).build())
                .build());
        try (Step decision = Step.begin(step)) {
            while (true) {
                try {
                    return activities.refund(invoiceId, amountCents);
                } catch (ActivityFailure failure) {
                    String type = ((ApplicationFailure) failure.getCause()).getType();
                    if (!type.equals(ApprovalPendingException.class.getName()) || decided) {
                        return "failure:" + type;
                    }
                    Workflow.await(() -> decided);
                }
            }
        }
    }

    @Override
    public void decided() {
        decided = true;
    }
}
