package io.idempotent.runtime;

/**
 * Settles an operation whose effect may or may not have happened, by asking the downstream
 * (never by guessing). Declared per tool with {@code @IdempotentTool(reconciler = ...)}; the class
 * needs a public no-argument constructor.
 *
 * <p>A call that meets an operation in {@code needs_reconciliation} runs the reconciler before
 * anything else: {@link Reconciliation#applied APPLIED} completes the operation with the
 * reconciled result (the caller gets it, the body does not run); {@link Reconciliation#notApplied
 * NOT_APPLIED} makes the operation claimable again (the tool's retry policy decides whether this
 * call re-runs it); {@link Reconciliation#unknown UNKNOWN} leaves it for a person. A reconciler
 * that throws counts as UNKNOWN: its exception's text goes to the attempt log, where an operator
 * reads it, while the caller's exception and the runtime's log line name only its class (the text
 * is often a downstream's reply), and it is not attached as a cause. Reconcilers may run concurrently for the same key; only one
 * answer is recorded.
 *
 * @param <R> the tool's result type
 */
@FunctionalInterface
public interface Reconciler<R> {

    /**
     * Asks the downstream whether the operation's effect happened.
     *
     * @param operation the record: key, tool, payload, downstream request id, attempts
     */
    Reconciliation<R> reconcile(OperationRecord operation) throws Exception;
}
