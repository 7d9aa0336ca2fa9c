package io.idempotent.temporal;

import io.idempotent.runtime.Step;
import io.temporal.activity.ActivityInfo;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The one home of the step an activity execution runs in: the workflow's, else one derived from
 * the activity's identity (see {@link ActivityStepScope#RUN}). Never the attempt number.
 */
final class ActivitySteps {

    private ActivitySteps() {
    }

    /**
     * Begins the step of this activity execution; a scope that does nothing when there is none
     * (the workflow set none and the scope derives none).
     *
     * @throws IllegalStateException for a standalone activity whose run id the SDK does not give
     */
    static AutoCloseable begin(Optional<String> workflowStep, ActivityInfo info, ActivityStepScope scope) {
        if (workflowStep.isPresent()) {
            return Step.begin(workflowStep.get()); // validated when the workflow code began it
        }
        if (scope == ActivityStepScope.WORKFLOW_STEP_ONLY) {
            return () -> { };
        }
        String readable = derived(info, info.getActivityId());
        try {
            return Step.begin(readable);
        } catch (IllegalArgumentException tooLongOrControlCharacters) {
            // A custom activity id may be long or hold any character: its digest keeps it distinct.
            return Step.begin(derived(info, "sha256-" + sha256(info.getActivityId())));
        }
    }

    /** The derived step of {@code info}, with {@code activityId} standing for its activity id. */
    static String derived(ActivityInfo info, String activityId) {
        if (info.isInWorkflow()) {
            return "temporal:run:" + info.getWorkflowRunId() + ":activity:" + activityId;
        }
        String run = info.getActivityRunId();
        if (run == null || run.isEmpty()) {
            throw new IllegalStateException("the standalone activity " + info.getActivityType() + " (id "
                    + info.getActivityId() + ") has no activity run id to derive a step from; with"
                    + " ActivityStepScope.WORKFLOW_STEP_ONLY its tools take their keys from their arguments");
        }
        return "temporal:activity:" + info.getActivityNamespace() + ":" + activityId + ":run:" + run;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
