package io.idempotent.temporal;

import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptorBase;

/**
 * The workflow side: every activity and local activity the workflow code schedules carries the
 * step that is current on the calling workflow thread. The workflow code sets it
 * deterministically, so a replay of the workflow schedules the same activity with the same step.
 */
final class StepCarryingWorkflowInbound extends WorkflowInboundCallsInterceptorBase {

    StepCarryingWorkflowInbound(WorkflowInboundCallsInterceptor next) {
        super(next);
    }

    @Override
    public void init(WorkflowOutboundCallsInterceptor outboundCalls) {
        super.init(new WorkflowOutboundCallsInterceptorBase(outboundCalls) {
            @Override
            public <R> ActivityOutput<R> executeActivity(ActivityInput<R> input) {
                WorkflowStepHeader.putCurrentStep(input.getHeader());
                return super.executeActivity(input);
            }

            @Override
            public <R> LocalActivityOutput<R> executeLocalActivity(LocalActivityInput<R> input) {
                WorkflowStepHeader.putCurrentStep(input.getHeader());
                return super.executeLocalActivity(input);
            }
        });
    }
}
