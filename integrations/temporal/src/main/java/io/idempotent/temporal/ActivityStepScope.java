package io.idempotent.temporal;

/**
 * Which step an activity runs in when the workflow code set none: a declared choice, because the
 * right identity of an intended operation depends on what an operator may do to the workflow.
 *
 * <p>A step the workflow code set ({@code Step.begin(...)} around the activity call) always wins:
 * the workflow layer creates the key. The attempt number is never part of a step: it changes on
 * every retry, and a retry is the same intended operation.
 */
public enum ActivityStepScope {

    /**
     * The default: a step derived from the activity's identity within its run,
     * {@code temporal:run:<workflow run id>:activity:<activity id>} (a standalone activity, started
     * by a client without a workflow: {@code temporal:activity:<namespace>:<activity id>:run:<activity run
     * id>}). Stable across the activity's retries and timeouts; distinct in a new run, so a run
     * continued as new, a workflow retried by its own retry policy, and a reset never replay an
     * earlier run's result: after a reset the activities of the new run execute again. For anything
     * an operator may reset, let the workflow set a business step instead.
     */
    RUN,

    /**
     * No derived step: only the step the workflow code set. A tool whose key contains
     * {@code {step}} is refused ({@code MissingOperationKeyException}, non-retryable, the body does
     * not run) when its activity was called without one. Activities whose tools take their keys
     * from their arguments run as usual.
     */
    WORKFLOW_STEP_ONLY
}
