package io.idempotent.runtime.binding;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.Retry;
import io.idempotent.policy.internal.ApprovalRules;
import io.idempotent.policy.internal.KeyTemplate;
import io.idempotent.policy.internal.NotAppliedOnRule;
import io.idempotent.policy.internal.OutboxRules;
import io.idempotent.policy.internal.PolicyRules;
import io.idempotent.policy.internal.StoreNames;
import io.idempotent.policy.internal.ToolNames;
import io.idempotent.policy.internal.TransactionalRules;
import io.idempotent.runtime.ManualReview;
import io.idempotent.runtime.Reconciler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The release-gate answers of one tool, as the annotation processor validated them. Generated
 * bindings build it with {@link #builder(String)}; programmatic callers may too. The runtime
 * and the agent read a tool's policy only from here, never by re-reading the annotation, so what
 * the build checked is what runs.
 */
public final class ToolPolicy {

    private static final System.Logger LOG = System.getLogger(ToolPolicy.class.getName());

    private final String name;
    private final String store;
    private final String keyTemplate;
    private final boolean downstreamKey;
    private final Retry retry;
    private final Duration downstreamRetention;
    private final Supplier<? extends Reconciler<?>> reconciler;
    private final String reconcilerName;
    private final List<Class<? extends Throwable>> notAppliedOn;
    private final EffectBoundary effectBoundary;
    private final Duration lease;
    private final Duration retention;
    private final List<String> payloadParameters;
    private final Approval approval;
    private final Duration approvalValidity;
    private final boolean transactional;
    private final List<String> outbox;

    private ToolPolicy(Builder b) {
        this.name = b.name;
        this.store = b.store;
        this.keyTemplate = b.keyTemplate;
        this.downstreamKey = b.downstreamKey;
        this.retry = b.retry;
        this.downstreamRetention = b.downstreamRetention;
        this.reconciler = b.reconciler;
        this.reconcilerName = b.reconcilerName;
        this.notAppliedOn = List.copyOf(b.notAppliedOn);
        this.effectBoundary = b.effectBoundary;
        this.lease = b.lease;
        this.retention = b.retention;
        this.payloadParameters = List.copyOf(b.payloadParameters);
        this.approval = b.approval;
        this.approvalValidity = b.approvalValidity;
        this.transactional = b.transactional;
        this.outbox = List.copyOf(b.outbox);
    }

    /** Starts a policy for the tool with this name (unique per store). */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** The tool's name in the store, metrics and release-gate table. */
    public String name() {
        return name;
    }

    /** The name of the store that holds this tool's records. */
    public String store() {
        return store;
    }

    /** The key template as written in the annotation, for messages and the incident review. */
    public String keyTemplate() {
        return keyTemplate;
    }

    /** Whether the downstream deduplicates the operation key. */
    public boolean downstreamKey() {
        return downstreamKey;
    }

    /** Which failure states a repeated call may re-execute. */
    public Retry retry() {
        return retry;
    }

    /** How long the downstream remembers the key; present when {@link #downstreamKey()}. */
    public Optional<Duration> downstreamRetention() {
        return Optional.ofNullable(downstreamRetention);
    }

    /** Creates the tool's reconciler; empty when none is declared. */
    public Optional<Supplier<? extends Reconciler<?>>> reconciler() {
        return Optional.ofNullable(reconciler);
    }

    /** The reconciler's class name for messages, or {@code "none"}. */
    public String reconcilerName() {
        return reconcilerName;
    }

    /** Exceptions that prove that no effect happened. */
    public List<Class<? extends Throwable>> notAppliedOn() {
        return notAppliedOn;
    }

    /** Whether {@code t} is one of {@link #notAppliedOn()} (or a subclass). */
    public boolean provesNotApplied(Throwable t) {
        for (Class<? extends Throwable> type : notAppliedOn) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** Where the effect may begin in the body. */
    public EffectBoundary effectBoundary() {
        return effectBoundary;
    }

    /** How long one attempt owns the key before its lease must be renewed. */
    public Duration lease() {
        return lease;
    }

    /** How long the operation record is kept. */
    public Duration retention() {
        return retention;
    }

    /** The names of the parameters that make up the payload, in declaration order. */
    public List<String> payloadParameters() {
        return payloadParameters;
    }

    /** Whether a person must approve each operation before its body runs. */
    public Approval approval() {
        return approval;
    }

    /** Whether {@link #approval()} is {@link Approval#REQUIRED}. */
    public boolean approvalRequired() {
        return approval == Approval.REQUIRED;
    }

    /** How long a grant stays valid before the call that runs it must come. */
    public Duration approvalValidity() {
        return approvalValidity;
    }

    /**
     * Whether the tool's effect is a write in the store's own database that commits with the
     * record: claim, body and completion in one transaction ({@code transactional = true}).
     */
    public boolean transactional() {
        return transactional;
    }

    /**
     * The outbox destinations the body may send to ({@code outbox = {...}}), in declaration order;
     * empty for a tool that sends nothing. A {@code send} to any other destination is refused.
     */
    public List<String> outbox() {
        return outbox;
    }

    @Override
    public String toString() {
        return "ToolPolicy[" + name + ", store=" + store + ", key=" + keyTemplate + ", downstreamKey="
                + downstreamKey + ", retry=" + retry + ", reconciler=" + reconcilerName + ", boundary="
                + effectBoundary + ", lease=" + lease + ", approval=" + approval + (transactional ? ", transactional" : "")
                + (outbox.isEmpty() ? "" : ", outbox=" + outbox) + "]";
    }

    /**
     * Builds a {@link ToolPolicy}. The defaults are {@code @IdempotentTool}'s own, and
     * {@link #build()} applies the release gate's rules (key template, store name, retry against
     * the downstream answer, durations), so a policy written in code is held to what an annotated
     * tool is held to at compile time.
     */
    public static final class Builder {
        private final String name;
        private String store = AnnotationDefaults.STORE;
        private String keyTemplate = "";
        private boolean downstreamKey;
        private Retry retry = AnnotationDefaults.RETRY;
        private Duration downstreamRetention;
        private Supplier<? extends Reconciler<?>> reconciler;
        private String reconcilerName = "none";
        private List<Class<? extends Throwable>> notAppliedOn = List.of();
        private EffectBoundary effectBoundary = AnnotationDefaults.EFFECT_BOUNDARY;
        private Duration lease = AnnotationDefaults.LEASE;
        private Duration retention = AnnotationDefaults.RETENTION;
        private List<String> payloadParameters = List.of();
        private Approval approval = AnnotationDefaults.APPROVAL;
        private Duration approvalValidity = AnnotationDefaults.APPROVAL_VALIDITY;
        private boolean transactional;
        private List<String> outbox = List.of();

        private Builder(String name) {
            // What a name may be is ToolNames' rule, applied by build() as the gate applies it.
            this.name = Objects.requireNonNull(name, "name");
        }

        /**
         * The store name; {@code "default"} if not set.
         *
         * @throws IllegalArgumentException for a name the runtime cannot configure (see
         *     {@code store} on {@code @IdempotentTool})
         */
        public Builder store(String store) {
            this.store = StoreNames.require(store);
            return this;
        }

        /** The key template, for messages. */
        public Builder keyTemplate(String keyTemplate) {
            this.keyTemplate = Objects.requireNonNull(keyTemplate, "keyTemplate");
            return this;
        }

        /** Whether the downstream deduplicates the key; with its retention when it does. */
        public Builder downstreamKey(boolean downstreamKey) {
            this.downstreamKey = downstreamKey;
            return this;
        }

        /** How long the downstream remembers the key. */
        public Builder downstreamRetention(Duration downstreamRetention) {
            this.downstreamRetention = downstreamRetention;
            return this;
        }

        /** The retry policy. */
        public Builder retry(Retry retry) {
            this.retry = Objects.requireNonNull(retry, "retry");
            return this;
        }

        /** The reconciler factory and its class name for messages. */
        public Builder reconciler(Supplier<? extends Reconciler<?>> factory, String className) {
            this.reconciler = Objects.requireNonNull(factory, "factory");
            this.reconcilerName = Objects.requireNonNull(className, "className");
            return this;
        }

        /** Exceptions that prove no effect happened. */
        public Builder notAppliedOn(List<Class<? extends Throwable>> types) {
            this.notAppliedOn = List.copyOf(types);
            return this;
        }

        /** Where the effect may begin. */
        public Builder effectBoundary(EffectBoundary effectBoundary) {
            this.effectBoundary = Objects.requireNonNull(effectBoundary, "effectBoundary");
            return this;
        }

        /** The lease of one attempt; positive, shorter than the downstream retention. */
        public Builder lease(Duration lease) {
            this.lease = Objects.requireNonNull(lease, "lease");
            return this;
        }

        /** How long records are kept. */
        public Builder retention(Duration retention) {
            this.retention = Objects.requireNonNull(retention, "retention");
            return this;
        }

        /** The payload parameter names, in declaration order. */
        public Builder payloadParameters(List<String> names) {
            this.payloadParameters = List.copyOf(names);
            return this;
        }

        /** Whether a person must approve each operation before its body runs. */
        public Builder approval(Approval approval) {
            this.approval = Objects.requireNonNull(approval, "approval");
            return this;
        }

        /**
         * How long a grant stays valid: at least one second, at most 100 years. Another validity
         * than the annotation's default only with {@link Approval#REQUIRED}: on a tool without
         * approval it would do nothing, and {@link #build()} refuses it, as the release gate does.
         */
        public Builder approvalValidity(Duration approvalValidity) {
            this.approvalValidity = Objects.requireNonNull(approvalValidity, "approvalValidity");
            return this;
        }

        /**
         * Whether the effect is a write in the store's own database, committed with the record
         * (see {@code transactional} on {@code @IdempotentTool}); {@code false} if not set.
         */
        public Builder transactional(boolean transactional) {
            this.transactional = transactional;
            return this;
        }

        /**
         * The outbox destinations the body may send to (see {@code outbox} on
         * {@code @IdempotentTool}); none if not set, and then every {@code send} is refused.
         * {@link #build()} refuses an empty, too long or repeated name, or one with a control character.
         */
        public Builder outbox(String... destinations) {
            this.outbox = List.of(destinations);
            return this;
        }

        /**
         * The policy.
         *
         * @throws IllegalArgumentException naming every rule of the release gate the policy breaks
         */
        public ToolPolicy build() {
            List<String> problems = new ArrayList<>();
            String nameProblem = ToolNames.problem(name);
            if (nameProblem != null) {
                problems.add(nameProblem);
            }
            String keyProblem = KeyTemplate.problemOf(keyTemplate);
            if (keyProblem != null) {
                problems.add(keyProblem);
            }
            PolicyRules.Reconciling reconciling = reconciler == null ? PolicyRules.Reconciling.NONE
                    : reconcilerName.equals(ManualReview.class.getName()) ? PolicyRules.Reconciling.MANUAL_REVIEW
                            : PolicyRules.Reconciling.REAL;
            for (PolicyRules.Violation violation : PolicyRules.check(new PolicyRules.Facts(downstreamKey, retry.name(),
                    reconciling, downstreamRetention != null, downstreamRetention, lease, retention, transactional))) {
                problems.add(violation.description());
            }
            for (ApprovalRules.Violation violation : ApprovalRules.check(new ApprovalRules.Facts(
                    approval == Approval.REQUIRED, !approvalValidity.equals(AnnotationDefaults.APPROVAL_VALIDITY),
                    approvalValidity))) {
                problems.add(violation.description());
            }
            // Whether the method is asynchronous is the caller's to say: AsyncToolCalls refuses such a call.
            for (TransactionalRules.Violation violation : TransactionalRules.check(new TransactionalRules.Facts(
                    transactional, downstreamKey, reconciler != null, !notAppliedOn.isEmpty(),
                    effectBoundary == EffectBoundary.MARKED, approval == Approval.REQUIRED, false))) {
                problems.add(violation.description());
            }
            problems.addAll(OutboxRules.declarationProblems(outbox));
            for (Class<? extends Throwable> type : notAppliedOn) {
                switch (NotAppliedOnRule.judge(type.getName())) {
                    case TOO_BROAD -> problems.add(NotAppliedOnRule.tooBroad(type.getName()));
                    case IO_AFTER_SEND -> LOG.log(System.Logger.Level.WARNING, "tool " + name + ": "
                            + NotAppliedOnRule.ioAfterSend(type.getName()));
                    case SPECIFIC -> {
                    }
                }
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("tool " + ToolNames.printable(name, ToolNames.MAX_LENGTH) + ": "
                        + String.join("; ", problems));
            }
            return new ToolPolicy(this);
        }
    }
}
