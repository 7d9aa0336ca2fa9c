package io.idempotent.processor;

import java.util.ArrayList;
import java.util.List;
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
    /** Diagnostics held back while a tool class may still be deferred to the next round; null when not holding. */
    private List<Runnable> held;

    Reporter(Messager messager) {
        this.messager = messager;
    }

    void report(Diagnostic diagnostic, Element element, AnnotationMirror mirror, AnnotationValue value,
            Object... args) {
        if (diagnostic.kind() == javax.tools.Diagnostic.Kind.ERROR) {
            errors = true;
        }
        String message = diagnostic.format(args);
        if (held != null) {
            held.add(() -> print(diagnostic, message, element, mirror, value));
            return;
        }
        print(diagnostic, message, element, mirror, value);
    }

    private void print(Diagnostic diagnostic, String message, Element element, AnnotationMirror mirror,
            AnnotationValue value) {
        if (mirror != null && value != null) {
            messager.printMessage(diagnostic.kind(), message, element, mirror, value);
        } else if (mirror != null) {
            messager.printMessage(diagnostic.kind(), message, element, mirror);
        } else {
            messager.printMessage(diagnostic.kind(), message, element);
        }
    }

    /** Holds back every diagnostic until {@link #release()} or {@link #discard()}. */
    void hold() {
        held = new ArrayList<>();
    }

    /** Prints the held diagnostics and stops holding. */
    void release() {
        List<Runnable> pending = held;
        held = null;
        if (pending != null) {
            pending.forEach(Runnable::run);
        }
    }

    /** Drops the held diagnostics (the tools are validated again in the next round) and stops holding. */
    void discard() {
        held = null;
    }

    /** Clears the error flag before the next tool; returns whether the last one had errors. */
    boolean resetErrors() {
        boolean had = errors;
        errors = false;
        return had;
    }
}
