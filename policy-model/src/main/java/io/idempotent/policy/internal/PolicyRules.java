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
        RETENTION_VS_LEASE("retention", "the retention must be at least the lease"),
        /** A lease shorter than a second, counted in milliseconds as the store counts it. */
        LEASE_TOO_SHORT("lease", "the lease must be at least one second (PT1S): a shorter one can end before the"
                + " claim is even written, and a concurrent caller would take the key over and run the body too"),
        /** A lease longer than {@link PolicyRules#LONGEST}. */
        LEASE_TOO_LONG("lease", "the lease must be at most " + LONGEST_TEXT),
        /** A retention longer than {@link PolicyRules#LONGEST}. */
        RETENTION_TOO_LONG("retention", "the retention must be at most " + LONGEST_TEXT),
        /** A downstream retention longer than {@link PolicyRules#LONGEST}. */
        DOWNSTREAM_RETENTION_TOO_LONG("downstreamRetention", "downstreamRetention must be at most " + LONGEST_TEXT),
        /** A downstream retention on a tool whose downstream does not deduplicate the key: it would be dropped. */
        DOWNSTREAM_RETENTION_UNUSED("downstreamRetention", "downstreamRetention is given but downstreamKey = false:"
                + " the downstream does not deduplicate the key, so the retention would be dropped; remove it, or set"
                + " downstreamKey = true if the downstream does deduplicate the key");

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
            Duration downstreamRetention, Duration lease, Duration retention, boolean transactional) {

        /** The facts of a tool that is not transactional. */
        public Facts(boolean downstreamKey, String retry, Reconciling reconciling, boolean downstreamRetentionGiven,
                Duration downstreamRetention, Duration lease, Duration retention) {
            this(downstreamKey, retry, reconciling, downstreamRetentionGiven, downstreamRetention, lease, retention,
                    false);
        }
    }

    /** The shortest lease: one second, counted in whole milliseconds as the store counts it. */
    public static final Duration SHORTEST_LEASE = Duration.ofSeconds(1);

    /**
     * The longest lease, retention or downstream retention: 100 years. The store adds them, in
     * milliseconds, to the database's clock; this keeps the milliseconds far inside a {@code long}
     * and the sum far inside what both databases hold (PostgreSQL timestamps end in the year
     * 294276 and its intervals at about 178 million years; H2's timestamps at the year 999999999),
     * and no retention policy keeps an operation's record for longer.
     */
    public static final Duration LONGEST = Duration.ofDays(36_525);

    static final String LONGEST_TEXT = "100 years (P36525D), what the store can add to its clock";

    private PolicyRules() {
    }

    private static boolean tooLong(Duration duration) {
        return duration != null && duration.compareTo(LONGEST) > 0;
    }

    /** Every rule {@code facts} break, in a stable order; empty when the policy is consistent. */
    public static List<Violation> check(Facts facts) {
        List<Violation> broken = new ArrayList<>();
        // A transactional tool's effect commits with its record: it is never uncertain (TransactionalRules).
        if (!facts.downstreamKey() && facts.reconciling() == Reconciling.NONE && !facts.transactional()) {
            broken.add(Violation.NO_DOWNSTREAM_ANSWER);
        }
        if ("UNCERTAIN".equals(facts.retry()) && !facts.downstreamKey() && facts.reconciling() != Reconciling.REAL) {
            broken.add(Violation.UNCERTAIN_RETRY);
        }
        if (facts.downstreamKey() && !facts.downstreamRetentionGiven()) {
            broken.add(Violation.DOWNSTREAM_RETENTION_MISSING);
        }
        if (!facts.downstreamKey() && facts.downstreamRetentionGiven()) {
            broken.add(Violation.DOWNSTREAM_RETENTION_UNUSED);
        }
        // A duration past the longest is reported alone: comparing it with the others says nothing more.
        Duration downstreamRetention = facts.downstreamRetention();
        if (tooLong(downstreamRetention)) {
            broken.add(Violation.DOWNSTREAM_RETENTION_TOO_LONG);
            downstreamRetention = null;
        }
        Duration retention = facts.retention();
        if (tooLong(retention)) {
            broken.add(Violation.RETENTION_TOO_LONG);
            retention = null;
        }
        Duration lease = facts.lease();
        if (lease != null && (lease.isNegative() || lease.isZero())) {
            broken.add(Violation.LEASE_POSITIVE);
        } else if (tooLong(lease)) {
            broken.add(Violation.LEASE_TOO_LONG);
        } else if (lease != null) {
            if (lease.toMillis() < SHORTEST_LEASE.toMillis()) {
                broken.add(Violation.LEASE_TOO_SHORT);
            }
            if (facts.downstreamKey() && downstreamRetention != null && lease.compareTo(downstreamRetention) >= 0) {
                broken.add(Violation.LEASE_VS_DOWNSTREAM);
            }
            if (retention != null && retention.compareTo(lease) < 0) {
                broken.add(Violation.RETENTION_VS_LEASE);
            }
        }
        return broken;
    }
}
