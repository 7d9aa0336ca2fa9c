package io.idempotent.temporal;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.failure.ApplicationFailure;
import java.util.Optional;

/**
 * The activity side: runs one activity execution inside its step and answers the runtime's
 * outcomes as failures Temporal's retry policy understands.
 */
final class StepActivityInbound extends ActivityInboundCallsInterceptorBase {

    private final ActivityStepScope scope;
    private ActivityExecutionContext context;

    StepActivityInbound(ActivityInboundCallsInterceptor next, ActivityStepScope scope) {
        super(next);
        this.scope = scope;
    }

    @Override
    public void init(ActivityExecutionContext context) {
        this.context = context;
        super.init(new ManualCompletionGuard(context));
    }

    @Override
    public ActivityOutput execute(ActivityInput input) {
        AutoCloseable step;
        try {
            step = ActivitySteps.begin(WorkflowStepHeader.read(input.getHeader()), context.getInfo(), scope);
        } catch (RuntimeException noStep) {
            // Fail closed: without its step no tool of this activity may run, and a retry cannot help.
            throw ApplicationFailure.newNonRetryableFailureWithCause(noStep.getMessage(),
                    noStep.getClass().getName(), noStep);
        }
        try (AutoCloseable open = step) {
            return super.execute(input);
        } catch (RuntimeException | Error thrown) {
            Optional<ApplicationFailure> failure = ActivityFailures.forThrown(thrown);
            if (failure.isPresent()) {
                throw failure.get();
            }
            throw thrown;
        } catch (Exception unreachable) {
            throw new IllegalStateException(unreachable); // Step.close declares none
        }
    }
}
