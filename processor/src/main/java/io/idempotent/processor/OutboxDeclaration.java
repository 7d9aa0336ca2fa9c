package io.idempotent.processor;

import io.idempotent.policy.internal.OutboxRules;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.AnnotationValue;

/**
 * Reads {@code outbox = {...}}, the destinations a tool's body may send to, and reports what
 * {@link OutboxRules} refuses (the runtime's {@code send} applies the same rules, so a declared
 * destination is one it accepts).
 */
final class OutboxDeclaration {

    private OutboxDeclaration() {
    }

    /** The declared destinations, in order; reports each problem on the annotation's outbox value. */
    static List<String> check(ToolAnnotation values, String display) {
        List<String> destinations = new ArrayList<>();
        if (values.get("outbox") instanceof List<?> list) {
            for (Object item : list) {
                Object v = item instanceof AnnotationValue av ? av.getValue() : item;
                destinations.add(String.valueOf(v));
            }
        }
        for (String problem : OutboxRules.declarationProblems(destinations)) {
            values.report(Diagnostic.OUTBOX_DESTINATION, "outbox", display, problem);
        }
        return destinations;
    }
}
