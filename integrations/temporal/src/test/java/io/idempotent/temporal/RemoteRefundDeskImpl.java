package io.idempotent.temporal;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/** A 3 s start-to-close timeout: the retry of an attempt whose worker died comes within seconds. */
public class RemoteRefundDeskImpl implements RemoteRefundDesk {

    @Override
    public String refund(String invoiceId, long amountCents, String activityQueue) {
        RefundActivities activities = Workflow.newActivityStub(RefundActivities.class, ActivityOptions.newBuilder()
                .setTaskQueue(activityQueue).setStartToCloseTimeout(Duration.ofSeconds(3))
                .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofMillis(200))
                        .setBackoffCoefficient(1.0).setMaximumAttempts(100).build())
                .build());
        try {
            return activities.refund(invoiceId, amountCents);
        } catch (ActivityFailure failure) {
            return failure.getCause() instanceof ApplicationFailure application ? "failure:" + application.getType()
                    : "failure:" + failure.getCause();
        }
    }
}
