package io.idempotent.temporal;

import com.uber.m3.tally.Scope;
import io.idempotent.runtime.OperationContext;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.activity.ManualActivityCompletionClient;
import io.temporal.client.ActivityCompletionException;
import io.temporal.client.WorkflowClient;
import io.temporal.failure.ApplicationFailure;
import java.lang.reflect.Type;
import java.util.Optional;

/**
 * The activity's context as the activity code sees it, refusing manual (asynchronous) completion
 * inside an idempotent tool's body: the runtime stores what the tool method returns, so a result
 * delivered later through {@code ActivityCompletionClient} would never be stored, and a retry
 * would replay the method's placeholder return value. Outside a tool body everything is
 * delegated unchanged.
 */
final class ManualCompletionGuard implements ActivityExecutionContext {

    /** The failure type of the refusal. */
    static final String REFUSED = "io.idempotent.temporal.ManualCompletionRefused";

    private final ActivityExecutionContext context;

    ManualCompletionGuard(ActivityExecutionContext context) {
        this.context = context;
    }

    private static void refuseInsideATool() {
        OperationContext operation;
        try {
            operation = OperationContext.current();
        } catch (IllegalStateException notInAToolBody) {
            return;
        }
        throw ApplicationFailure.newNonRetryableFailure("tool " + operation.tool() + ", key " + operation.key()
                + ": manual activity completion is refused inside an idempotent tool: the runtime stores the value"
                + " the tool method returns, never one completed later. Return the result from the tool method"
                + " (a long call heartbeats), or complete manually in an activity that is not a tool", REFUSED);
    }

    @Override
    public void doNotCompleteOnReturn() {
        refuseInsideATool();
        context.doNotCompleteOnReturn();
    }

    @Override
    public ManualActivityCompletionClient useLocalManualCompletion() {
        refuseInsideATool();
        return context.useLocalManualCompletion();
    }

    @Override
    public ActivityInfo getInfo() {
        return context.getInfo();
    }

    @Override
    public <V> void heartbeat(V details) throws ActivityCompletionException {
        context.heartbeat(details);
    }

    @Override
    public <V> Optional<V> getHeartbeatDetails(Class<V> detailsClass) {
        return context.getHeartbeatDetails(detailsClass);
    }

    @Override
    public <V> Optional<V> getHeartbeatDetails(Class<V> detailsClass, Type detailsGenericType) {
        return context.getHeartbeatDetails(detailsClass, detailsGenericType);
    }

    @Override
    public <V> Optional<V> getLastHeartbeatDetails(Class<V> detailsClass) {
        return context.getLastHeartbeatDetails(detailsClass);
    }

    @Override
    public <V> Optional<V> getLastHeartbeatDetails(Class<V> detailsClass, Type detailsGenericType) {
        return context.getLastHeartbeatDetails(detailsClass, detailsGenericType);
    }

    @Override
    public byte[] getTaskToken() {
        return context.getTaskToken();
    }

    @Override
    public boolean isDoNotCompleteOnReturn() {
        return context.isDoNotCompleteOnReturn();
    }

    @Override
    public boolean isUseLocalManualCompletion() {
        return context.isUseLocalManualCompletion();
    }

    @Override
    public Scope getMetricsScope() {
        return context.getMetricsScope();
    }

    @Override
    public WorkflowClient getWorkflowClient() {
        return context.getWorkflowClient();
    }

    @Override
    public Object getInstance() {
        return context.getInstance();
    }
}
