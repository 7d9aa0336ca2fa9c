package io.idempotent.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.Step;
import io.temporal.activity.ActivityInfo;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The step rule alone, on activity infos as the SDK gives them (no server needed). */
class ActivityStepsTest {

    private static final String RUN = "5f0e7c1a-1111-4222-8333-944445555666";

    /** An ActivityInfo answering {@code values} by method name. */
    private static ActivityInfo info(Map<String, Object> values) {
        return (ActivityInfo) Proxy.newProxyInstance(ActivityInfo.class.getClassLoader(),
                new Class<?>[] {ActivityInfo.class}, (proxy, method, args) -> {
                    if (!values.containsKey(method.getName())) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    return values.get(method.getName());
                });
    }

    private static ActivityInfo inWorkflow(String activityId, int attempt) {
        return info(Map.of("isInWorkflow", true, "getWorkflowRunId", RUN, "getActivityId", activityId,
                "getAttempt", attempt));
    }

    private static Optional<String> stepOf(Optional<String> workflowStep, ActivityInfo info, ActivityStepScope scope)
            throws Exception {
        try (AutoCloseable step = ActivitySteps.begin(workflowStep, info, scope)) {
            return Step.currentKey();
        }
    }

    @Test
    void theWorkflowsStepWinsOverTheDerivedOne() throws Exception {
        assertThat(stepOf(Optional.of("invoice_842:approved_17"), inWorkflow("7", 1), ActivityStepScope.RUN))
                .contains("invoice_842:approved_17");
        assertThat(Step.currentKey()).isEmpty();
    }

    @Test
    void theDerivedStepIsTheRunAndTheActivityNeverTheAttempt() throws Exception {
        Optional<String> first = stepOf(Optional.empty(), inWorkflow("7", 1), ActivityStepScope.RUN);
        Optional<String> third = stepOf(Optional.empty(), inWorkflow("7", 3), ActivityStepScope.RUN);

        assertThat(first).contains("temporal:run:" + RUN + ":activity:7");
        assertThat(third).isEqualTo(first);
        assertThat(stepOf(Optional.empty(), inWorkflow("8", 1), ActivityStepScope.RUN)).isNotEqualTo(first);
    }

    @Test
    void anActivityIdTooLongOrWithControlCharactersEntersAsItsDigest() throws Exception {
        String longId = "x".repeat(600);
        Optional<String> long1 = stepOf(Optional.empty(), inWorkflow(longId, 1), ActivityStepScope.RUN);
        Optional<String> long2 = stepOf(Optional.empty(), inWorkflow(longId + "y", 1), ActivityStepScope.RUN);
        Optional<String> control = stepOf(Optional.empty(), inWorkflow("a\nb", 1), ActivityStepScope.RUN);

        assertThat(long1).hasValueSatisfying(s -> assertThat(s).matches("temporal:run:" + RUN
                + ":activity:sha256-[0-9a-f]{64}"));
        assertThat(long2).isNotEqualTo(long1);
        assertThat(control).hasValueSatisfying(s -> assertThat(s).contains(":activity:sha256-").doesNotContain("\n"));
    }

    @Test
    void aStandaloneActivityIsItsNamespaceIdAndActivityRun() throws Exception {
        ActivityInfo standalone = info(Map.of("isInWorkflow", false, "getActivityNamespace", "billing",
                "getActivityId", "refund-inv-842", "getActivityRunId", "run-9", "getAttempt", 2));

        assertThat(stepOf(Optional.empty(), standalone, ActivityStepScope.RUN))
                .contains("temporal:activity:billing:refund-inv-842:run:run-9");
    }

    @Test
    void aStandaloneActivityWithoutARunIdIsRefused() {
        ActivityInfo standalone = info(Map.of("isInWorkflow", false, "getActivityNamespace", "billing",
                "getActivityId", "refund-inv-842", "getActivityRunId", "", "getActivityType", "Refund"));

        assertThatThrownBy(() -> stepOf(Optional.empty(), standalone, ActivityStepScope.RUN))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("WORKFLOW_STEP_ONLY");
    }

    @Test
    void workflowStepsOnlyDerivesNone() throws Exception {
        assertThat(stepOf(Optional.empty(), inWorkflow("7", 1), ActivityStepScope.WORKFLOW_STEP_ONLY)).isEmpty();
        assertThat(stepOf(Optional.of("invoice_842:approved_17"), inWorkflow("7", 1),
                ActivityStepScope.WORKFLOW_STEP_ONLY)).contains("invoice_842:approved_17");
    }
}
