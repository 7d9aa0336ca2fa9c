package io.idempotent.annotations;

/**
 * Where the external effect of a tool body may begin. The runtime uses it to decide whether a
 * failed or abandoned attempt is safe to run again, or must be reconciled first.
 */
public enum EffectBoundary {

    /**
     * The effect may begin as soon as the body starts. A body that throws (other than a
     * {@code notAppliedOn} exception), or whose lease expires while it runs, has an uncertain
     * outcome and is never silently retried.
     */
    BODY_START,

    /**
     * The body marks the boundary itself by calling
     * {@code OperationContext.current().effectStarting(downstreamRequestId)} right before the
     * effect. That call is a durable write fenced by the attempt's lease: a failure before it is
     * safe to retry, an abandoned attempt that never reached it may be taken over, and a worker
     * that lost its lease cannot pass it.
     */
    MARKED
}
