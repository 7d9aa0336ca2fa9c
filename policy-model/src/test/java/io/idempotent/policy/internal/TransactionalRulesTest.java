package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A transactional tool's answer to question 4 is its transaction: every answer for an uncertain effect is refused. */
class TransactionalRulesTest {

    private static TransactionalRules.Facts transactional(boolean downstreamKey, boolean reconciler,
            boolean notAppliedOn, boolean marked, boolean approval, boolean async) {
        return new TransactionalRules.Facts(true, downstreamKey, reconciler, notAppliedOn, marked, approval, async);
    }

    @Test
    void aTransactionalToolNeedsNoDownstreamKeyOrReconciler() {
        assertThat(PolicyRules.check(new PolicyRules.Facts(false, "SAFE", PolicyRules.Reconciling.NONE, false, null,
                Duration.ofSeconds(30), Duration.ofDays(30), true))).isEmpty();
        assertThat(PolicyRules.check(new PolicyRules.Facts(false, "SAFE", PolicyRules.Reconciling.NONE, false, null,
                Duration.ofSeconds(30), Duration.ofDays(30), false)))
                .containsExactly(PolicyRules.Violation.NO_DOWNSTREAM_ANSWER);
        assertThat(PolicyRules.check(new PolicyRules.Facts(false, "UNCERTAIN", PolicyRules.Reconciling.NONE, false,
                null, Duration.ofSeconds(30), Duration.ofDays(30), true)))
                .containsExactly(PolicyRules.Violation.UNCERTAIN_RETRY);
        assertThat(TransactionalRules.check(transactional(false, false, false, false, false, false))).isEmpty();
    }

    @Test
    void everyAnswerForAnUncertainEffectIsRefusedInAStableOrder() {
        assertThat(TransactionalRules.check(transactional(true, true, true, true, true, true))).containsExactly(
                TransactionalRules.Violation.DOWNSTREAM_KEY, TransactionalRules.Violation.RECONCILER,
                TransactionalRules.Violation.NOT_APPLIED_ON, TransactionalRules.Violation.EFFECT_BOUNDARY,
                TransactionalRules.Violation.APPROVAL, TransactionalRules.Violation.ASYNC);
        assertThat(TransactionalRules.check(transactional(false, false, false, false, false, true)))
                .containsExactly(TransactionalRules.Violation.ASYNC);
    }

    @Test
    void aToolThatIsNotTransactionalIsNotJudgedHere() {
        assertThat(TransactionalRules.check(new TransactionalRules.Facts(false, true, true, true, true, true, true)))
                .isEmpty();
    }

    @Test
    void theTableSaysWhichToolsAreTransactional() {
        String json = "{\"tools\": [{\"name\": \"a\", \"class\": \"x.A\", \"method\": \"a()\", \"store\": \"s\","
                + " \"transactional\": true}, {\"name\": \"b\", \"class\": \"x.B\", \"method\": \"b()\","
                + " \"transactional\": false}, {\"name\": \"c\", \"class\": \"x.C\", \"method\": \"c()\"}]}";
        assertThat(ReleaseGateTable.tools(json)).extracting(ListedTool::name, ListedTool::transactional)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", true),
                        org.assertj.core.groups.Tuple.tuple("b", false), org.assertj.core.groups.Tuple.tuple("c", false));
    }
}
