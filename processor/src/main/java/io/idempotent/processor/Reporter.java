package io.idempotent.processor;

import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;

/**
 * Reports diagnostics on the most precise position javac knows: the annotation value that is
 * wrong when the user wrote it, else the annotation, else the element; and remembers whether any
 * error was reported for the tool being validated.
 */
final class Reporter {

    private final Messager messager;
    private boolean errors;

    Reporter(Messager messager) {
        this.messager = messager;
    }

    void report(Diagnostic diagnostic, Element element, AnnotationMirror mirror, AnnotationValue value,
            Object... args) {
        if (diagnostic.kind() == javax.tools.Diagnostic.Kind.ERROR) {
            errors = true;
        }
        String message = diagnostic.format(args);
        if (mirror != null && value != null) {
            messager.printMessage(diagnostic.kind(), message, element, mirror, value);
        } else if (mirror != null) {
            messager.printMessage(diagnostic.kind(), message, element, mirror);
        } else {
            messager.printMessage(diagnostic.kind(), message, element);
        }
    }

    /** Clears the error flag before the next tool; returns whether the last one had errors. */
    boolean resetErrors() {
        boolean had = errors;
        errors = false;
        return had;
    }
}
