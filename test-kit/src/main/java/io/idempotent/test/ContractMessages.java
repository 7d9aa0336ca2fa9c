package io.idempotent.test;

import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.binding.ToolPolicy;

/** Every message with which the kit fails a case, in one place. Messages name tool, key and counts, never payloads. */
final class ContractMessages {

    private ContractMessages() {
    }

    static String downstreamKeyClaimFalse(ToolPolicy policy, String key, String downstream, long requests, long effects) {
        return "tool " + policy.name() + " claims downstreamKey = true, but " + downstream + " did not deduplicate the"
                + " operation key: the re-send under the same key " + key + " produced a second effect (requests "
                + requests + ", effects " + effects + "). The claim is false: pass OperationContext.current().key() to"
                + " a downstream that deduplicates it, or declare downstreamKey = false with a reconciler that asks"
                + " the downstream";
    }

    static String reconcilerAnsweredNotApplied(ToolPolicy policy, String key, long effects) {
        return "reconciler " + policy.reconcilerName() + " of tool " + policy.name() + " answered NOT_APPLIED for "
                + key + " although the downstream had applied the effect" + (effects > 1 ? "; the retry ran the body"
                + " again and produced a second effect (effects " + effects + ")" : "") + ". A reconciler must answer"
                + " APPLIED when the effect happened, and NOT_APPLIED only when the downstream proves it did not";
    }

    static String secondEffect(ToolPolicy policy, String key, Fault fault, long effects) {
        return "tool " + policy.name() + " produced a second effect for " + key + " after \"" + fault.label()
                + "\" (effects " + effects + "): one decision must never become two effects";
    }

    static String safeAlthoughCommitted(ToolPolicy policy, String key, Fault fault, Throwable thrown) {
        return "tool " + policy.name() + " recorded the failure of " + key + " as safe (failed_safe) although the"
                + " downstream had committed (\"" + fault.label() + "\", the body threw " + name(thrown) + "): "
                + (policy.provesNotApplied(thrown) ? "notAppliedOn lists " + name(thrown) + ", but that exception"
                + " does not prove that nothing happened" : "the effect boundary was not marked before the external"
                + " call") + ", so a retry may apply the effect again";
    }

    static String reconcilerNotConsulted(ToolPolicy policy, String key) {
        return "the reconciler " + policy.reconcilerName() + " of tool " + policy.name() + " was not consulted for "
                + key + " although its outcome was uncertain";
    }

    static String secondCall(ToolPolicy policy, String key, long before, long after) {
        return "a second call reached the downstream for " + key + " after an uncertain outcome (requests " + before
                + " -> " + after + "), although tool " + policy.name() + " (downstreamKey = " + policy.downstreamKey()
                + ", retry = " + policy.retry() + ", reconciler " + policy.reconcilerName() + ") leaves it to"
                + " reconciliation";
    }

    static String noResend(ToolPolicy policy, String key) {
        return "tool " + policy.name() + " (downstreamKey = true, retry = UNCERTAIN) should have re-sent " + key
                + " under the same key, but no second request reached the downstream";
    }

    static String resentUnderAnotherKey(ToolPolicy policy, String key, java.util.List<String> keys) {
        return "tool " + policy.name() + " re-sent " + key + " under different downstream keys " + keys + ": a"
                + " downstream can only deduplicate the key it saw before; pass OperationContext.current().key()";
    }

    static String faultNeverStruck(ToolPolicy policy, Fault fault) {
        return "the injected fault \"" + fault.label() + "\" never struck: tool " + policy.name() + " did not call its"
                + " downstream through the case's Faults (use Faults.httpClient, OkHttpFaults.interceptor, Faults.wrap,"
                + " Faults.around or a ProviderDouble in the set-up)";
    }

    static String swallowedFailure(ToolPolicy policy, Fault fault) {
        return "tool " + policy.name() + " returned normally although its call failed (\"" + fault.label() + "\"):"
                + " that answer is now stored and replayed. An uncertain outcome must surface as an exception, so"
                + " that the runtime reconciles it";
    }

    static String uncounted(ToolPolicy policy, String what, long counted, long expected) {
        return "the downstream of tool " + policy.name() + " counted " + counted + " " + what + " where " + expected
                + " happened: count requests and effects where the downstream receives and applies them";
    }

    // ---- the approval gate (tools declared approval = REQUIRED)

    static String notPending(ToolPolicy policy, String key, String which, String answer) {
        return "tool " + policy.name() + " needs approval (approval = REQUIRED), but " + which + " of " + key
                + " before any decision was answered " + answer + " instead of ApprovalPendingException";
    }

    static String ranWithoutApproval(ToolPolicy policy, String key, String which, int runs, long requests,
            long effects) {
        return "tool " + policy.name() + " needs approval, but " + which + " of " + key + " ran the body or reached"
                + " the downstream (body runs " + runs + ", requests " + requests + ", effects " + effects + "): nothing"
                + " may run that a person has not approved";
    }

    static String answerRetryable(ToolPolicy policy, String key, String answer, boolean retryable) {
        return "tool " + policy.name() + " answered " + key + " with " + answer + " marked " + (retryable
                ? "retryable" : "not retryable") + "; it must be " + (retryable ? "final (a denial is not retried)"
                : "retryable (the same call runs once approved)");
    }

    static String notQueued(ToolPolicy policy, String key) {
        return "the call of " + key + " was answered pending, but the approval queue of store " + policy.store()
                + " (Approvals.pending) does not list it for tool " + policy.name() + ": no operator could decide it";
    }

    static String queuedTimes(ToolPolicy policy, String key, long times) {
        return "the approval queue of store " + policy.store() + " lists " + key + " of tool " + policy.name() + " "
                + times + " times after a call and its repeat, expected once";
    }

    static String decisionRefused(ToolPolicy policy, String key, boolean grant, RuntimeException e) {
        return "the " + (grant ? "grant" : "denial") + " of " + key + " (tool " + policy.name() + ") with the payload"
                + " hash the approval queue shows was refused: " + e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    static String decisionNotRecorded(ToolPolicy policy, String key, boolean grant, OperationStatus status) {
        return "after the " + (grant ? "grant" : "denial") + " of " + key + " (tool " + policy.name()
                + ") the operation is " + (status == null ? "without a record" : status.column()) + ", expected "
                + (grant ? "approved" : "denied");
    }

    static String changedAfterGrant(ToolPolicy policy, String key, String answer) {
        return "after the grant of " + key + " (tool " + policy.name() + "), a call with a changed payload under the"
                + " same key was answered " + answer + " instead of PayloadConflictException: an approval covers"
                + " exactly the arguments the operator saw";
    }

    static String grantNotUsed(ToolPolicy policy, String key, String answer) {
        return "after the grant of " + key + " (tool " + policy.name() + ") and a rejected changed call, the approved"
                + " call was answered " + answer + " instead of running: the rejected call must not use up the grant";
    }

    static String notDenied(ToolPolicy policy, String key, String which, String answer) {
        return "tool " + policy.name() + ": " + which + " of " + key + " was answered " + answer
                + " instead of ApprovalDeniedException";
    }

    static String name(Throwable t) {
        return t == null ? "nothing" : t.getClass().getName();
    }
}
