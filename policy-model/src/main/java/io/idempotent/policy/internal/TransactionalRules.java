package io.idempotent.policy.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The rules of a transactional tool ({@code transactional = true}): its effect is a write in the
 * store's own database, committed in one transaction with the claim and the completion, so
 * nothing about it is ever uncertain and every answer meant for an uncertain effect is a mistake.
 * The processor reports each violation on the annotation value that is wrong;
 * {@code ToolPolicy.Builder} refuses to build a policy that has one. Not for users.
 */
public final class TransactionalRules {

    /** A broken rule, with the attribute it is reported on and a plain description. */
    public enum Violation {
        /** The effect is said to go to a downstream that deduplicates the key. */
        DOWNSTREAM_KEY("downstreamKey", "transactional = true says the effect is a write in the store's own"
                + " database, committed with the record; downstreamKey = true says it goes to a downstream. Set"
                + " downstreamKey = false (and no downstreamRetention), or transactional = false"),
        /** A reconciler, which nothing would ever ask. */
        RECONCILER("reconciler", "transactional = true: a crash rolls the body's writes back with the claim, so no"
                + " outcome is ever uncertain and the reconciler would never be asked; remove it"),
        /** Exceptions that prove nothing happened, which every failure already does. */
        NOT_APPLIED_ON("notAppliedOn", "transactional = true: every failure rolls the body's writes back, so every"
                + " failure is already known not to have applied; remove notAppliedOn"),
        /** A marked effect boundary, which the transaction makes meaningless. */
        EFFECT_BOUNDARY("effectBoundary", "transactional = true: the body's writes commit with the record, there is"
                + " no effect boundary to mark; remove effectBoundary = MARKED"),
        /** Approval by a person, not supported with a transaction. */
        APPROVAL("approval", "transactional = true cannot be combined with approval = Approval.REQUIRED in this"
                + " version: make the approval a tool of its own before the transactional one"),
        /** An asynchronous result, whose body would run outside the claiming thread's transaction. */
        ASYNC("transactional", "transactional = true needs a method that returns its result directly: the"
                + " transaction belongs to the thread that claims, and a CompletionStage or Mono completes elsewhere");

        private final String attribute;
        private final String description;

        Violation(String attribute, String description) {
            this.attribute = attribute;
            this.description = description;
        }

        /** The annotation attribute the violation is reported on. */
        public String attribute() {
            return attribute;
        }

        /** What is wrong and how to fix it, without the tool's values. */
        public String description() {
            return description;
        }
    }

    /**
     * What the rules look at.
     *
     * @param asynchronous the method returns a {@code CompletionStage}, {@code CompletableFuture} or {@code Mono}
     */
    public record Facts(boolean transactional, boolean downstreamKey, boolean reconcilerDeclared,
            boolean notAppliedOnGiven, boolean effectBoundaryMarked, boolean approvalRequired, boolean asynchronous) {
    }

    private TransactionalRules() {
    }

    /** Every rule {@code facts} break, in a stable order; empty for a tool that is not transactional. */
    public static List<Violation> check(Facts facts) {
        List<Violation> broken = new ArrayList<>();
        if (!facts.transactional()) {
            return broken;
        }
        if (facts.downstreamKey()) {
            broken.add(Violation.DOWNSTREAM_KEY);
        }
        if (facts.reconcilerDeclared()) {
            broken.add(Violation.RECONCILER);
        }
        if (facts.notAppliedOnGiven()) {
            broken.add(Violation.NOT_APPLIED_ON);
        }
        if (facts.effectBoundaryMarked()) {
            broken.add(Violation.EFFECT_BOUNDARY);
        }
        if (facts.approvalRequired()) {
            broken.add(Violation.APPROVAL);
        }
        if (facts.asynchronous()) {
            broken.add(Violation.ASYNC);
        }
        return broken;
    }
}
