package io.idempotent.processor;

import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.Elements;

/**
 * One tool's {@code @IdempotentTool}: its values (defaults included), and where to report a
 * problem with each, on the value the user wrote, else on the annotation.
 */
final class ToolAnnotation {
    final Element element;
    final AnnotationMirror mirror;
    private final Reporter reporter;
    private final Map<? extends ExecutableElement, ? extends AnnotationValue> explicit;
    private final Map<? extends ExecutableElement, ? extends AnnotationValue> all;

    ToolAnnotation(Element element, AnnotationMirror mirror, Elements elements, Reporter reporter) {
        this.element = element;
        this.mirror = mirror;
        this.reporter = reporter;
        this.explicit = mirror.getElementValues();
        this.all = elements.getElementValuesWithDefaults(mirror);
    }

    AnnotationValue value(String attribute) {
        return find(all, attribute);
    }

    Object get(String attribute) {
        AnnotationValue v = value(attribute);
        return v == null ? null : v.getValue();
    }

    String string(String attribute) {
        Object v = get(attribute);
        return v == null ? "" : v.toString();
    }

    /**
     * The ISO-8601 text of a duration attribute as the gate parses it, without blanks around it:
     * the binding and the table carry this text, so what the gate accepted is what the runtime parses.
     */
    String durationText(String attribute) {
        return string(attribute).strip();
    }

    boolean bool(String attribute) {
        return Boolean.TRUE.equals(get(attribute));
    }

    String enumConstant(String attribute) {
        Object v = get(attribute);
        return v instanceof VariableElement constant ? constant.getSimpleName().toString() : String.valueOf(v);
    }

    /** The annotation's default for {@code attribute} (as the annotation type declares it), or null without one. */
    Object defaultOf(String attribute) {
        for (Element member : mirror.getAnnotationType().asElement().getEnclosedElements()) {
            if (member instanceof ExecutableElement m && m.getSimpleName().contentEquals(attribute)) {
                return m.getDefaultValue() == null ? null : m.getDefaultValue().getValue();
            }
        }
        return null;
    }

    /** The value the user wrote for {@code attribute}, or null when it is the default. */
    AnnotationValue explicitValue(String attribute) {
        return find(explicit, attribute);
    }

    void report(Diagnostic diagnostic, String attribute, Object... args) {
        reporter.report(diagnostic, element, mirror, attribute == null ? null : find(explicit, attribute), args);
    }

    private static AnnotationValue find(Map<? extends ExecutableElement, ? extends AnnotationValue> values,
            String attribute) {
        for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e : values.entrySet()) {
            if (e.getKey().getSimpleName().contentEquals(attribute)) {
                return e.getValue();
            }
        }
        return null;
    }
}
