package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The bounds of a tool's durations, its name and what {step} means, at their edges. */
class ToolRulesTest {

    private static PolicyRules.Facts durations(Duration lease, Duration retention, Duration downstreamRetention) {
        return new PolicyRules.Facts(true, "SAFE", PolicyRules.Reconciling.NONE, true, downstreamRetention, lease,
                retention);
    }

    @Test
    void aLeaseIsAtLeastOneSecondCountedInMilliseconds() {
        Duration day = Duration.ofDays(1);
        assertThat(PolicyRules.check(durations(Duration.ofSeconds(1), day, day))).isEmpty();
        assertThat(PolicyRules.check(durations(Duration.ofMillis(999), day, day)))
                .containsExactly(PolicyRules.Violation.LEASE_TOO_SHORT);
        // 0.9999999 s is 999 ms to the store; 0.0004 s is 0 ms.
        assertThat(PolicyRules.check(durations(Duration.ofNanos(999_999_999), day, day)))
                .containsExactly(PolicyRules.Violation.LEASE_TOO_SHORT);
        assertThat(PolicyRules.check(durations(Duration.parse("PT0.0004S"), day, day)))
                .containsExactly(PolicyRules.Violation.LEASE_TOO_SHORT);
        assertThat(PolicyRules.check(durations(Duration.ZERO, day, day)))
                .containsExactly(PolicyRules.Violation.LEASE_POSITIVE);
    }

    @Test
    void durationsAreAtMostAHundredYearsAndReportedAlone() {
        Duration longest = PolicyRules.LONGEST;
        Duration past = longest.plusNanos(1);
        Duration huge = Duration.parse("PT9223372036854775807S");
        Duration lease = Duration.ofSeconds(30);
        assertThat(PolicyRules.check(durations(lease, longest, longest))).isEmpty();
        assertThat(PolicyRules.check(durations(lease, past, Duration.ofDays(1))))
                .containsExactly(PolicyRules.Violation.RETENTION_TOO_LONG);
        assertThat(PolicyRules.check(durations(lease, Duration.ofDays(1), huge)))
                .containsExactly(PolicyRules.Violation.DOWNSTREAM_RETENTION_TOO_LONG);
        assertThat(PolicyRules.check(durations(huge, Duration.ofDays(1), Duration.ofDays(1))))
                .containsExactly(PolicyRules.Violation.LEASE_TOO_LONG);
    }

    @Test
    void aDownstreamRetentionNeedsADownstreamKey() {
        assertThat(PolicyRules.check(new PolicyRules.Facts(false, "SAFE", PolicyRules.Reconciling.MANUAL_REVIEW,
                true, Duration.ofDays(1), Duration.ofSeconds(30), Duration.ofDays(30))))
                .containsExactly(PolicyRules.Violation.DOWNSTREAM_RETENTION_UNUSED);
    }

    @Test
    void aToolNameIsVisibleAndFitsTheColumn() {
        assertThat(ToolNames.problem("issue_refund")).isNull();
        assertThat(ToolNames.problem("  \t")).contains("must not be blank");
        assertThat(ToolNames.problem("refund\u0000")).contains("control character U+0000");
        assertThat(ToolNames.problem("refund\n")).contains("control character U+000A");
        assertThat(ToolNames.printable("refund\u0000x", 40)).isEqualTo("refund\\u0000x");
        assertThat(ToolNames.printable("abcdef", 3)).isEqualTo("abc...");
    }

    @Test
    void stepIsTheWorkflowsStepWhateverTheParametersAreCalled() {
        assertThat(KeyTemplate.namesStep("step")).isTrue();
        assertThat(KeyTemplate.namesStep("step.id")).isTrue();
        assertThat(KeyTemplate.namesStep("stepId")).isFalse();
        assertThat(KeyTemplate.namesStep("context.step")).isFalse();
    }
}
