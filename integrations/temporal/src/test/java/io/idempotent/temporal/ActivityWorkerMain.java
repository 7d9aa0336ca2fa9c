package io.idempotent.temporal;

import io.temporal.client.WorkflowClient;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * An activity worker in a JVM of its own, started with the agent, its store from system
 * properties (as an application's): serves {@link FileLedgerRefundActivities} on a task queue of
 * a port-bound Temporal test server, and stalls where the test will kill it.
 *
 * <p>Args: server target ({@code host:port}), task queue, payments file, and where to stall:
 * {@code body} (inside the tool body, after the effect) or {@code reply} (after the tool returned
 * and its result was stored, before Temporal hears it). Prints {@code polling}, then
 * {@code effect made <id>} or {@code result stored <id>}.
 */
public final class ActivityWorkerMain {

    private ActivityWorkerMain() {
    }

    public static void main(String[] args) {
        boolean stallInBody = args[3].equals("body");
        WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
                WorkflowServiceStubsOptions.newBuilder().setTarget(args[0]).build());
        WorkerInterceptor[] interceptors = stallInBody ? new WorkerInterceptor[] {new IdempotentWorkerInterceptor()}
                : new WorkerInterceptor[] {new StallBeforeTheReply(), new IdempotentWorkerInterceptor()};
        WorkerFactory factory = WorkerFactory.newInstance(WorkflowClient.newInstance(service),
                WorkerFactoryOptions.newBuilder().setWorkerInterceptors(interceptors).build());
        factory.newWorker(args[1]).registerActivitiesImplementations(
                new FileLedgerRefundActivities(new PaymentFile(Path.of(args[2])), stallInBody));
        factory.start();
        System.out.println("polling");
    }

    /** Outermost: holds the activity's answer after the tool stored it, until the JVM is killed. */
    private static final class StallBeforeTheReply extends WorkerInterceptorBase {

        @Override
        public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
            return new ActivityInboundCallsInterceptorBase(next) {
                @Override
                public ActivityOutput execute(ActivityInput input) {
                    ActivityOutput output = super.execute(input);
                    System.out.println("result stored " + output.getResult());
                    try {
                        new CountDownLatch(1).await(); // until the test kills this JVM
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return output;
                }
            };
        }
    }
}
