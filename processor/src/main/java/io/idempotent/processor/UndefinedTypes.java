package io.idempotent.processor;

import java.util.HashSet;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.type.TypeMirror;

/**
 * The rule every family applies first to a type it is about to check ({@code [IdemTypeUndefined]}):
 * a type that is not defined is reported once per type and tool, and nothing else is checked
 * about it. In a round before the last it may be one that another processor has not generated
 * yet, so the processor validates the tool again in the next round.
 */
final class UndefinedTypes {

    private final TypeChecks typeChecks;
    private final Reporter reporter;
    /** The undefined types reported for the tool being validated (each once). */
    private final Set<String> reported = new HashSet<>();

    UndefinedTypes(TypeChecks typeChecks, Reporter reporter) {
        this.typeChecks = typeChecks;
        this.reporter = reporter;
    }

    /** Forgets the last tool's types, before the next tool is validated. */
    void clear() {
        reported.clear();
    }

    /** Whether an undefined type was met since {@link #clear()}. */
    boolean any() {
        return !reported.isEmpty();
    }

    /**
     * Reports {@code type} if it (or a type inside it) is not defined, once per type and tool, and
     * says whether it was.
     */
    boolean reportIfUndefined(TypeMirror type, String what, String display, Element element, AnnotationMirror mirror,
            AnnotationValue value) {
        if (!typeChecks.mentionsUndefined(type)) {
            return false;
        }
        if (reported.add(type.toString())) {
            reporter.report(Diagnostic.TYPE_UNDEFINED, element, mirror, value, what, display, type);
        }
        return true;
    }
}
