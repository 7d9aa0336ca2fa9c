package io.idempotent.processor;

import java.util.List;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * The step and context parameters: a framework context parameter's version has the accessors the
 * binding calls ({@code [IdemContextType]}); the key's {@code {step}} and
 * {@code {context.NAME}} can tell which context parameter they read ({@code [IdemContextMissing]},
 * {@code [IdemContextAmbiguous]}); and no parameter is named {@code step} when the key names the
 * workflow's step ({@code [IdemStepParameter]}).
 */
final class ContextParameterRules {

    private final Elements elements;
    private final Reporter reporter;

    ContextParameterRules(Elements elements, Reporter reporter) {
        this.elements = elements;
        this.reporter = reporter;
    }

    /** Reports a context type whose version lacks an accessor the generated binding would call. */
    void checkAccessors(VariableElement parameter, ContextParameter context, String display) {
        TypeMirror current = parameter.asType();
        for (String name : context.accessors()) {
            DeclaredType declared = TypeChecks.declared(current);
            ExecutableElement found = null;
            if (declared != null) {
                for (ExecutableElement m : ElementFilter.methodsIn(elements.getAllMembers(
                        (TypeElement) declared.asElement()))) {
                    if (m.getSimpleName().contentEquals(name) && m.getParameters().isEmpty()
                            && m.getModifiers().contains(Modifier.PUBLIC) && !m.getModifiers().contains(Modifier.STATIC)) {
                        found = m;
                        break;
                    }
                }
            }
            if (found == null) {
                reporter.report(Diagnostic.CONTEXT_TYPE, parameter, null, null, parameter.getSimpleName(), display,
                        context.qualifiedName(), name);
                return;
            }
            current = found.getReturnType();
        }
    }

    /** Reports a parameter named like {@code {step}}, which in the key is always the workflow's step. */
    void reportStepParameter(ToolAnnotation annotation, ToolModel.Parameter parameter, String display,
            String template) {
        reporter.report(Diagnostic.STEP_PARAMETER, ((ExecutableElement) annotation.element).getParameters()
                .get(parameter.index()), null, null, parameter.name(), display, template);
    }

    /**
     * Checks that the key can tell which context parameter its {@code {step}} or
     * {@code {context.NAME}} reads: {@code {context.NAME}} needs exactly one, {@code {step}} at
     * most one (with none it reads the thread's Step).
     *
     * @return whether exactly one context parameter carries entries
     */
    boolean checkOneSource(ToolAnnotation annotation, String template, String placeholder,
            List<ToolModel.Parameter> parameters, String display, boolean required) {
        List<ToolModel.Parameter> sources = parameters.stream()
                .filter(p -> p.context() != null && p.context().entrySource()).toList();
        if (sources.isEmpty() && required) {
            annotation.report(Diagnostic.CONTEXT_MISSING, "key", template, placeholder, display);
        } else if (sources.size() > 1) {
            annotation.report(Diagnostic.CONTEXT_AMBIGUOUS, "key", template, placeholder, display, sources.size(),
                    String.join(", ", sources.stream().map(ToolModel.Parameter::name).toList()));
        }
        return sources.size() == 1;
    }
}
