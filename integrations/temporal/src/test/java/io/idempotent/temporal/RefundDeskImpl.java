package io.idempotent.temporal;

import io.idempotent.runtime.Step;
import io.temporal.activity.ActivityOptions;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Deterministic workflow code: the step, when there is one, is part of the plan (a business decision). */
public class RefundDeskImpl implements RefundDesk {

    /** How many refund calls the workflow code made while replaying history (test instrumentation). */
    static final AtomicInteger REPLAYED_CALLS = new AtomicInteger();

    private boolean released;

    @Override
    public List<String> run(DeskPlan plan) {
        RetryOptions retry = RetryOptions.newBuilder().setInitialInterval(Duration.ofMillis(100))
                .setBackoffCoefficient(1.0).setMaximumAttempts(plan.maxAttempts()).build();
        Duration startToClose = Duration.ofMillis(plan.startToCloseMillis());
        RefundActivities activities = plan.local()
                ? Workflow.newLocalActivityStub(RefundActivities.class, LocalActivityOptions.newBuilder()
                        .setStartToCloseTimeout(startToClose).setRetryOptions(retry).build())
                : Workflow.newActivityStub(RefundActivities.class, ActivityOptions.newBuilder()
                        .setStartToCloseTimeout(startToClose).setRetryOptions(retry).build());
        List<String> answers = new ArrayList<>();
        for (int i = 0; i < plan.amounts().size(); i++) {
            if (i == 1 && plan.waitBeforeSecond()) {
                Workflow.await(() -> released);
            }
            answers.add(refund(activities, plan, plan.amounts().get(i)));
        }
        if (plan.moreRuns() > 0) {
            Workflow.continueAsNew(plan.continuedAsNew(plan.moreRuns() - 1));
        }
        return answers;
    }

    private static String refund(RefundActivities activities, DeskPlan plan, long amountCents) {
        if (Workflow.isReplaying()) {
            REPLAYED_CALLS.incrementAndGet();
        }
        try (Step step = plan.step() == null ? null : Step.begin(plan.step())) {
            return activities.refund(plan.invoiceId(), amountCents);
        } catch (ActivityFailure failure) {
            return failure.getCause() instanceof ApplicationFailure application ? "failure:" + application.getType()
                    : "failure:" + failure.getCause();
        }
    }

    @Override
    public void release() {
        released = true;
    }
}
