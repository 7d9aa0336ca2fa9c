package io.idempotent.examples.temporal;

import io.idempotent.temporal.IdempotentWorkerInterceptor;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;

/**
 * A refund desk worker: {@code java -javaagent:idempotent-javaagent.jar -cp ... RefundDeskWorker
 * [temporal host:port]} (default {@code localhost:7233}). The one line that matters is the
 * interceptor in {@link #factoryOptions()}.
 */
public final class RefundDeskWorker {

    /** The task queue of the refund desk. */
    public static final String TASK_QUEUE = "refund-desk";

    private RefundDeskWorker() {
    }

    /** The worker factory's options: the interceptor. */
    public static WorkerFactoryOptions factoryOptions() {
        return WorkerFactoryOptions.newBuilder().setWorkerInterceptors(new IdempotentWorkerInterceptor()).build();
    }

    /** Registers the desk's workflow and activities on {@code factory}'s task queue. */
    public static Worker register(WorkerFactory factory, Payments payments) {
        Worker worker = factory.newWorker(TASK_QUEUE);
        worker.registerWorkflowImplementationTypes(RefundDeskImpl.class);
        worker.registerActivitiesImplementations(new RefundActivitiesImpl(payments));
        return worker;
    }

    /** Starts the worker and polls until the JVM stops. */
    public static void main(String[] args) {
        String target = args.length > 0 ? args[0] : "localhost:7233";
        WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
                WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
        WorkerFactory factory = WorkerFactory.newInstance(WorkflowClient.newInstance(service), factoryOptions());
        register(factory, new Payments());
        factory.start();
    }
}
