package io.idempotent.runtime.binding;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.time.Duration;

/**
 * {@code @IdempotentTool}'s defaults, read from the annotation itself: it is their one home, and a
 * policy built in code starts from what an annotated tool gets when it says nothing.
 */
final class AnnotationDefaults {

    static final String STORE = (String) of("store");
    static final Retry RETRY = Retry.NEVER;
    static final EffectBoundary EFFECT_BOUNDARY = (EffectBoundary) of("effectBoundary");
    static final Duration LEASE = Duration.parse((String) of("lease"));
    static final Duration RETENTION = Duration.parse((String) of("retention"));
    static final Approval APPROVAL = (Approval) of("approval");
    static final Duration APPROVAL_VALIDITY = Duration.parse((String) of("approvalValidity"));

    private AnnotationDefaults() {
    }

    private static Object of(String attribute) {
        try {
            return IdempotentTool.class.getMethod(attribute).getDefaultValue();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("@IdempotentTool has no attribute " + attribute
                    + ": idempotent-annotations and idempotent-runtime are of different versions", e);
        }
    }
}
