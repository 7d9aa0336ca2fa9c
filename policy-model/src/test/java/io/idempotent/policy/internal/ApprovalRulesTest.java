package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How long a grant may stay valid, at its edges, and a validity that nothing would use. */
class ApprovalRulesTest {

    private static ApprovalRules.Facts required(Duration validity) {
        return new ApprovalRules.Facts(true, true, validity);
    }

    @Test
    void aValidityIsAtLeastOneSecondCountedInMilliseconds() {
        assertThat(ApprovalRules.check(required(Duration.ofSeconds(1)))).isEmpty();
        assertThat(ApprovalRules.check(required(Duration.ofMillis(999))))
                .containsExactly(ApprovalRules.Violation.VALIDITY_TOO_SHORT);
        // 0.9999999 s is 999 ms to the store.
        assertThat(ApprovalRules.check(required(Duration.ofNanos(999_999_999))))
                .containsExactly(ApprovalRules.Violation.VALIDITY_TOO_SHORT);
        assertThat(ApprovalRules.check(required(Duration.ZERO)))
                .containsExactly(ApprovalRules.Violation.VALIDITY_TOO_SHORT);
        assertThat(ApprovalRules.check(required(Duration.ofDays(-1))))
                .containsExactly(ApprovalRules.Violation.VALIDITY_TOO_SHORT);
        assertThat(ApprovalRules.check(required(Duration.parse("-PT9223372036854775807S"))))
                .containsExactly(ApprovalRules.Violation.VALIDITY_TOO_SHORT);
    }

    @Test
    void aValidityIsAtMostAHundredYears() {
        assertThat(ApprovalRules.check(required(PolicyRules.LONGEST))).isEmpty();
        assertThat(ApprovalRules.check(required(PolicyRules.LONGEST.plusNanos(1))))
                .containsExactly(ApprovalRules.Violation.VALIDITY_TOO_LONG);
        assertThat(ApprovalRules.check(required(Duration.parse("PT9223372036854775807S"))))
                .containsExactly(ApprovalRules.Violation.VALIDITY_TOO_LONG);
    }

    @Test
    void aCustomValidityWithoutApprovalWouldDoNothingAndIsReportedAlone() {
        assertThat(ApprovalRules.check(new ApprovalRules.Facts(false, true, Duration.ofHours(4))))
                .containsExactly(ApprovalRules.Violation.VALIDITY_UNUSED);
        assertThat(ApprovalRules.check(new ApprovalRules.Facts(false, true, Duration.ZERO)))
                .containsExactly(ApprovalRules.Violation.VALIDITY_UNUSED);
        // The annotation's default: nothing to report, with or without approval.
        assertThat(ApprovalRules.check(new ApprovalRules.Facts(false, false, Duration.ofDays(1)))).isEmpty();
        assertThat(ApprovalRules.check(new ApprovalRules.Facts(true, false, Duration.ofDays(1)))).isEmpty();
    }

    @Test
    void aValidityThatDidNotParseIsLeftToTheParser() {
        assertThat(ApprovalRules.check(required(null))).isEmpty();
    }

    @Test
    void theTablesApprovalColumnSaysWhetherAndForHowLong() {
        assertThat(ApprovalRules.describe(false, "P1D")).isEqualTo("none");
        assertThat(ApprovalRules.describe(true, "P1D")).isEqualTo("required, valid P1D");
        assertThat(ApprovalRules.describe(true, "PT4H")).isEqualTo("required, valid PT4H");
    }
}
