package io.idempotent.temporal;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;

/**
 * Simulates a worker that made the effect and then failed before Temporal heard the result (the
 * completion RPC lost, the process failing after the call): attempt 1 of every activity throws
 * after the activity method returned.
 */
final class LostReplyInterceptor extends WorkerInterceptorBase {

    @Override
    public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
        return new ActivityInboundCallsInterceptorBase(next) {
            private ActivityExecutionContext context;

            @Override
            public void init(ActivityExecutionContext context) {
                this.context = context;
                super.init(context);
            }

            @Override
            public ActivityOutput execute(ActivityInput input) {
                ActivityOutput output = super.execute(input);
                if (context.getInfo().getAttempt() == 1) {
                    throw new IllegalStateException("the worker lost the reply of attempt 1");
                }
                return output;
            }
        };
    }
}
