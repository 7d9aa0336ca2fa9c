package io.idempotent.policy.internal;

import java.time.Duration;
import java.util.List;

/**
 * The rules of a tool's approval gate ({@code approval} and {@code approvalValidity} of
 * {@code @IdempotentTool}), and how the release-gate table shows it. The processor reports each
 * violation on the annotation value that is wrong; {@code ToolPolicy.Builder} refuses to build a
 * policy that has one. Not for users.
 */
public final class ApprovalRules {

    /** A broken rule, with the attribute it is reported on and a plain description. */
    public enum Violation {
        /** A custom validity on a tool that needs no approval: no grant would ever use it. */
        VALIDITY_UNUSED("approvalValidity", "approvalValidity is given but approval = NONE: no operation of the tool"
                + " waits for a grant, so the validity would do nothing; remove it, or set approval = REQUIRED"),
        /** A validity shorter than a second, counted in milliseconds as the store counts it. */
        VALIDITY_TOO_SHORT("approvalValidity", "approvalValidity must be at least one second (PT1S): the store"
                + " counts a grant's end in milliseconds, and a shorter grant would expire before the call that"
                + " uses it could come"),
        /** A validity longer than {@link PolicyRules#LONGEST}. */
        VALIDITY_TOO_LONG("approvalValidity", "approvalValidity must be at most " + PolicyRules.LONGEST_TEXT);

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
     * @param required whether the tool needs approval ({@code Approval.REQUIRED})
     * @param customValidity whether the validity differs from the annotation's default: only a
     *     custom one on a tool without approval is refused, so a policy copied value by value
     *     (the default validity included) still builds
     * @param validity the validity, or null when it did not parse (reported elsewhere)
     */
    public record Facts(boolean required, boolean customValidity, Duration validity) {
    }

    /** The shortest validity: one second, counted in whole milliseconds as the store counts it. */
    public static final Duration SHORTEST_VALIDITY = Duration.ofSeconds(1);

    private ApprovalRules() {
    }

    /** Every rule {@code facts} break; empty when the approval gate is consistent. */
    public static List<Violation> check(Facts facts) {
        if (!facts.required()) {
            // A validity that nothing uses is reported alone: its bounds would not matter once removed.
            return facts.customValidity() ? List.of(Violation.VALIDITY_UNUSED) : List.of();
        }
        Duration validity = facts.validity();
        if (validity == null) {
            return List.of();
        }
        if (validity.compareTo(PolicyRules.LONGEST) > 0) {
            return List.of(Violation.VALIDITY_TOO_LONG);
        }
        // Negative first: toMillis() of a very negative duration overflows.
        if (validity.isNegative() || validity.toMillis() < SHORTEST_VALIDITY.toMillis()) {
            return List.of(Violation.VALIDITY_TOO_SHORT);
        }
        return List.of();
    }

    /**
     * The release-gate table's {@code "approval"} of a tool: {@code none}, or {@code required,
     * valid P1D} with the validity as the tool declares it.
     */
    public static String describe(boolean required, String validity) {
        return required ? "required, valid " + validity : "none";
    }
}
