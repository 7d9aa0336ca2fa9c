package io.idempotent.temporal;

import io.idempotent.runtime.Step;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.interceptors.Header;
import java.util.Optional;

/**
 * The one home of how the workflow's step travels to its activities: a Temporal header named
 * {@link Step#CONTEXT_KEY}, written with the SDK's standard converter (not the application's, so
 * that a custom data converter cannot make it unreadable).
 */
final class WorkflowStepHeader {

    static final String NAME = Step.CONTEXT_KEY;

    private WorkflowStepHeader() {
    }

    /** Puts the workflow thread's current step, if it has one, into {@code header}. */
    static void putCurrentStep(Header header) {
        Optional<String> step = Step.currentKey();
        step.ifPresent(key -> header.getValues().put(NAME,
                DefaultDataConverter.STANDARD_INSTANCE.toPayload(key).orElseThrow()));
    }

    /** The step the workflow sent with the activity, if it sent one. */
    static Optional<String> read(Header header) {
        Payload payload = header == null ? null : header.getValues().get(NAME);
        if (payload == null) {
            return Optional.empty();
        }
        return Optional.of(DefaultDataConverter.STANDARD_INSTANCE.fromPayload(payload, String.class, String.class));
    }
}
