package io.idempotent.processor;

import io.idempotent.policy.internal.KeyTemplate;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * A Spring AI {@code @McpTool} on a tool method whose hand-written
 * {@code annotations = @McpAnnotations(idempotentHint = ...)} contradicts what the key makes
 * true: an MCP client reads the hint to decide whether repeating a call is safe, and
 * {@code IdempotentMcpTools} keeps the user's value in the listing. Only values written in the
 * source are checked (javac tells them from Spring AI's defaults; at run time they look alike).
 */
final class McpHintRules {

    /** Spring AI's annotation, by name: the processor does not depend on Spring AI. */
    static final String MCP_TOOL = "org.springframework.ai.mcp.annotation.McpTool";

    private final Reporter reporter;

    McpHintRules(Reporter reporter) {
        this.reporter = reporter;
    }

    void check(ExecutableElement method, String template, String display) {
        if (template == null) {
            return;
        }
        for (AnnotationMirror tool : method.getAnnotationMirrors()) {
            if (!((TypeElement) tool.getAnnotationType().asElement()).getQualifiedName().contentEquals(MCP_TOOL)) {
                continue;
            }
            AnnotationValue annotations = explicit(tool, "annotations");
            if (annotations == null || !(annotations.getValue() instanceof AnnotationMirror hints)) {
                return;
            }
            AnnotationValue idempotent = explicit(hints, "idempotentHint");
            if (idempotent == null || !(idempotent.getValue() instanceof Boolean hint)) {
                return;
            }
            boolean step = usesStep(template);
            if (hint && step) {
                reporter.report(Diagnostic.MCP_HINT_STEP, method, hints, idempotent, display, template);
            } else if (!hint && !step) {
                reporter.report(Diagnostic.MCP_HINT_ARGUMENTS, method, hints, idempotent, display, template);
            }
        }
    }

    /** The value written for {@code name}, or null when the source leaves it to the default. */
    private static AnnotationValue explicit(AnnotationMirror mirror, String name) {
        for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e : mirror.getElementValues().entrySet()) {
            if (e.getKey().getSimpleName().contentEquals(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    private static boolean usesStep(String template) {
        for (KeyTemplate.Piece piece : KeyTemplate.parse(template).pieces()) {
            if (piece.placeholder() != null && KeyTemplate.namesStep(piece.placeholder().text())) {
                return true;
            }
        }
        return false;
    }
}
