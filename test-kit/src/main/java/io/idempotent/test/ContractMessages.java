package io.idempotent.test;

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

    static String name(Throwable t) {
        return t == null ? "nothing" : t.getClass().getName();
    }
}
