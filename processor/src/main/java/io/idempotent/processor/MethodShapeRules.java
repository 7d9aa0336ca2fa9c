package io.idempotent.processor;

import java.util.List;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;

/**
 * The method's shape: the agent can wrap it (a method, not private, abstract or native;
 * {@code [IdemMethodShape]}) and the generated binding can name its class (not anonymous, local
 * or private; {@code [IdemToolClass]}).
 */
final class MethodShapeRules {

    private final Reporter reporter;

    MethodShapeRules(Reporter reporter) {
        this.reporter = reporter;
    }

    /** Reports what keeps the method from being wrapped or bound; returns its class, or null if it has none to bind. */
    TypeElement check(ExecutableElement method, ToolAnnotation annotation, String display) {
        if (method.getKind() != ElementKind.METHOD) {
            reporter.report(Diagnostic.METHOD_SHAPE, method, annotation.mirror, null, display, "is a constructor",
                    "move the effect into a method");
            return null;
        }
        Set<Modifier> modifiers = method.getModifiers();
        for (Modifier bad : List.of(Modifier.PRIVATE, Modifier.ABSTRACT, Modifier.NATIVE)) {
            if (modifiers.contains(bad)) {
                reporter.report(Diagnostic.METHOD_SHAPE, method, annotation.mirror, null, display, "is "
                        + bad.toString(), bad == Modifier.PRIVATE ? "make it package-private or public"
                        : "annotate the implementing method instead");
            }
        }
        if (!(method.getEnclosingElement() instanceof TypeElement toolClass)) {
            return null;
        }
        for (Element e = toolClass; e instanceof TypeElement type; e = e.getEnclosingElement()) {
            if (type.getNestingKind() == NestingKind.ANONYMOUS || type.getNestingKind() == NestingKind.LOCAL) {
                reporter.report(Diagnostic.TOOL_CLASS, method, annotation.mirror, null, display, "an anonymous or"
                        + " local class", "the agent instruments named classes and the binding must name the class;"
                        + " move the method to a top-level or nested class");
                return null;
            }
            if (type.getModifiers().contains(Modifier.PRIVATE)) {
                reporter.report(Diagnostic.TOOL_CLASS, method, annotation.mirror, null, display, "the private class "
                        + type.getQualifiedName(), "the generated binding cannot refer to it; make it"
                        + " package-private or public");
                return null;
            }
        }
        return toolClass;
    }
}
