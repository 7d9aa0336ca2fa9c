package io.idempotent.policy.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The consistency rules of a tool's policy: the release gate's questions 4 and 5 and the
 * durations. The processor reports each violation on the annotation value that is wrong;
 * {@code ToolPolicy.Builder} refuses to build a policy that has one. Not for users.
 */
public final class PolicyRules {

    /** How the tool settles an uncertain outcome. */
    public enum Reconciling {
        /** No reconciler declared. */
        NONE,
        /** {@code ManualReview}: a person decides; it never answers by itself. */
        MANUAL_REVIEW,
        /** A reconciler that asks the downstream. */
        REAL
    }

    /** A broken rule, with the attribute it is reported on and a plain description. */
    public enum Violation {
        /** Nothing can tell whether an uncertain call happened. */
        NO_DOWNSTREAM_ANSWER("downstreamKey", "downstreamKey = false and no reconciler: nothing can tell whether an"
                + " uncertain call happened; set downstreamKey = true or declare a reconciler (ManualReview if a"
                + " person decides)"),
        /** {@code Retry.UNCERTAIN} without a downstream key or a real reconciler. */
        UNCERTAIN_RETRY("retry", "retry = UNCERTAIN re-runs uncertain calls, which is safe only with downstreamKey ="
                + " true or a real reconciler (not ManualReview)"),
        /** {@code downstreamKey = true} without {@code downstreamRetention}. */
        DOWNSTREAM_RETENTION_MISSING("downstreamKey", "downstreamKey = true needs downstreamRetention: how long the"
                + " downstream remembers the key"),
        /** A lease of zero or less. */
        LEASE_POSITIVE("lease", "the lease must be positive"),
        /** A lease at least as long as the downstream's memory of the key. */
        LEASE_VS_DOWNSTREAM("lease", "the lease must be shorter than downstreamRetention: a retry after the lease"
                + " expired would reach a downstream that already forgot the key"),
        /** A retention shorter than the lease. */
        RETENTION_VS_LEASE("retention", "the retention must be at least the lease");

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
     * What the rules look at. A null duration was not given or did not parse (reported
     * elsewhere); {@code retry} is the name of the {@code Retry} constant.
     */
    public record Facts(boolean downstreamKey, String retry, Reconciling reconciling, boolean downstreamRetentionGiven,
            Duration downstreamRetention, Duration lease, Duration retention) {
    }

    private PolicyRules() {
    }

    /** Every rule {@code facts} break, in a stable order; empty when the policy is consistent. */
    public static List<Violation> check(Facts facts) {
        List<Violation> broken = new ArrayList<>();
        if (!facts.downstreamKey() && facts.reconciling() == Reconciling.NONE) {
            broken.add(Violation.NO_DOWNSTREAM_ANSWER);
        }
        if ("UNCERTAIN".equals(facts.retry()) && !facts.downstreamKey() && facts.reconciling() != Reconciling.REAL) {
            broken.add(Violation.UNCERTAIN_RETRY);
        }
        if (facts.downstreamKey() && !facts.downstreamRetentionGiven()) {
            broken.add(Violation.DOWNSTREAM_RETENTION_MISSING);
        }
        Duration lease = facts.lease();
        if (lease != null && (lease.isNegative() || lease.isZero())) {
            broken.add(Violation.LEASE_POSITIVE);
        } else if (lease != null) {
            if (facts.downstreamKey() && facts.downstreamRetention() != null
                    && lease.compareTo(facts.downstreamRetention()) >= 0) {
                broken.add(Violation.LEASE_VS_DOWNSTREAM);
            }
            if (facts.retention() != null && facts.retention().compareTo(lease) < 0) {
                broken.add(Violation.RETENTION_VS_LEASE);
            }
        }
        return broken;
    }
}
