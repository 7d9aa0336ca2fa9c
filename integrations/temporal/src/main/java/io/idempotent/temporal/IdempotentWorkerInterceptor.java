package io.idempotent.temporal;

import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import java.util.Objects;

/**
 * A Temporal {@code WorkerInterceptor} that runs every activity execution inside a
 * {@link io.idempotent.runtime.Step}, so that an activity method annotated with
 * {@code @IdempotentTool(key = "...{step}...")} makes its effect once per intended operation
 * through every retry, timeout and lost worker Temporal produces. Add it to the worker factory:
 *
 * <pre>{@code
 * WorkerFactory factory = WorkerFactory.newInstance(client, WorkerFactoryOptions.newBuilder()
 *         .setWorkerInterceptors(new IdempotentWorkerInterceptor())
 *         .build());
 * }</pre>
 *
 * <p><b>Which step.</b> When the workflow code called the activity inside a step
 * ({@code try (Step s = Step.begin("refund:" + invoiceId + ":" + approvalId)) { activities.refund(...); }},
 * deterministic workflow code, a business decision), the activity runs in that step: it travels
 * with the activity in a header named {@link io.idempotent.runtime.Step#CONTEXT_KEY}, for
 * activities and local activities alike. Otherwise the step is derived from the activity's
 * identity as the {@link ActivityStepScope} says (by default per run: the workflow run id and the
 * activity id, never the attempt number).
 *
 * <p><b>Outcomes.</b> The runtime's exceptions become {@code ApplicationFailure}s whose type is the
 * exception's class name (for example {@code io.idempotent.runtime.PayloadConflictException}),
 * retryable exactly when the exception is: in progress, store unavailable, lease lost and approval
 * pending are retried by Temporal's retry policy (and the retry replays); payload conflict, needs
 * reconciliation, approval denied and configuration errors are non-retryable, so the workflow sees
 * them at once. The tool body's own exceptions reach Temporal unchanged.
 *
 * <p><b>Heartbeats.</b> The runtime renews its own lease while the body runs; it does not heartbeat
 * Temporal, whose heartbeat is the activity code's own statement of progress (and the way it learns
 * of a cancellation). An activity with a heartbeat timeout heartbeats as Temporal documents.
 *
 * <p><b>Manual completion</b> ({@code doNotCompleteOnReturn()}, {@code useLocalManualCompletion()}) is
 * refused inside a tool body with a non-retryable failure of type
 * {@code io.idempotent.temporal.ManualCompletionRefused}: the runtime stores what the method returns.
 */
public final class IdempotentWorkerInterceptor extends WorkerInterceptorBase {

    private final ActivityStepScope scope;

    /** Steps from the workflow code, else derived per run ({@link ActivityStepScope#RUN}). */
    public IdempotentWorkerInterceptor() {
        this(ActivityStepScope.RUN);
    }

    /** Steps from the workflow code, else as {@code scope} says. */
    public IdempotentWorkerInterceptor(ActivityStepScope scope) {
        this.scope = Objects.requireNonNull(scope, "scope");
    }

    /** The scope of the steps derived for activities the workflow code gave none. */
    public ActivityStepScope scope() {
        return scope;
    }

    @Override
    public WorkflowInboundCallsInterceptor interceptWorkflow(WorkflowInboundCallsInterceptor next) {
        return new StepCarryingWorkflowInbound(next);
    }

    @Override
    public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
        return new StepActivityInbound(next, scope);
    }
}
