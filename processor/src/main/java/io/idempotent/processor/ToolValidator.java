package io.idempotent.processor;

import io.idempotent.annotations.NotPayload;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Turns one {@code @IdempotentTool} method into a {@link ToolModel}, or reports every problem it
 * has (all of them, not only the first) and returns nothing.
 *
 * <p>Each family of rules is a class of its own; this one holds the order in which they run, which
 * is the order of a tool's diagnostics: the method's shape ({@link MethodShapeRules}); a Kotlin
 * suspend function ({@link TypeRules}, which then skips its continuation and result); each
 * parameter in turn, its type defined, a context parameter's accessors
 * ({@link ContextParameterRules}) and a payload argument's type ({@link TypeRules}); the key and
 * its sources ({@link KeyRules}); the reconciler defined; the result ({@link TypeRules}); the
 * reconciler class ({@link ReconcilerRules}); the durations and the retry gate, then
 * {@code notAppliedOn} ({@link ReleaseGateRules}); the store's and the tool's names
 * ({@link NameRules}). A Spring AI {@code @McpTool}'s idempotentHint is checked against the key
 * right after the key ({@link McpHintRules}).
 */
final class ToolValidator {

    private final Elements elements;
    private final Types types;
    private final TypeChecks typeChecks;
    private final Reporter reporter;
    private final UndefinedTypes undefinedTypes;
    private final MethodShapeRules shapeRules;
    private final TypeRules typeRules;
    private final ContextParameterRules contextRules;
    private final KeyRules keyRules;
    private final ReconcilerRules reconcilerRules;
    private final ReleaseGateRules releaseGateRules;
    private final NameRules nameRules;
    private final McpHintRules mcpHintRules;

    ToolValidator(ProcessingEnvironment env, Reporter reporter) {
        this.elements = env.getElementUtils();
        this.types = env.getTypeUtils();
        this.typeChecks = new TypeChecks(env);
        this.reporter = reporter;
        this.undefinedTypes = new UndefinedTypes(typeChecks, reporter);
        this.shapeRules = new MethodShapeRules(reporter);
        this.typeRules = new TypeRules(env, typeChecks, undefinedTypes, reporter);
        this.contextRules = new ContextParameterRules(elements, reporter);
        this.keyRules = new KeyRules(elements, types, typeChecks, undefinedTypes, contextRules);
        this.reconcilerRules = new ReconcilerRules(elements, types, typeChecks, undefinedTypes);
        this.releaseGateRules = new ReleaseGateRules(undefinedTypes, reporter);
        this.nameRules = new NameRules();
        this.mcpHintRules = new McpHintRules(reporter);
    }

    /**
     * Whether the last {@link #validate} met a type that is not defined: in a round before the
     * last, one that another processor has not generated yet, so the tool must be validated again
     * in the next round (and its diagnostics of this round dropped).
     */
    boolean sawUndefinedType() {
        return undefinedTypes.any();
    }

    Optional<ToolModel> validate(ExecutableElement method, AnnotationMirror mirror) {
        reporter.resetErrors();
        undefinedTypes.clear();
        ToolAnnotation values = new ToolAnnotation(method, mirror, elements, reporter);
        String display = display(method);
        TypeElement toolClass = shapeRules.check(method, values, display);

        boolean suspend = typeRules.reportIfSuspendFunction(method, display);
        List<ToolModel.Parameter> parameters = new ArrayList<>();
        List<? extends VariableElement> params = method.getParameters();
        for (int i = 0; i < params.size(); i++) {
            VariableElement p = params.get(i);
            ContextParameter context = ContextParameter.of(p, types);
            boolean payload = p.getAnnotation(NotPayload.class) == null && context == null;
            parameters.add(new ToolModel.Parameter(i, p.getSimpleName().toString(), p.asType(), payload, context));
            if (suspend && i == params.size() - 1) {
                continue; // the continuation was reported as what it is, not as an unhashable payload
            }
            boolean undefined = typeRules.reportIfUndefined(p, display);
            if (!undefined && context != null && context.entrySource()) {
                contextRules.checkAccessors(p, context, display);
            }
            if (!undefined && payload) {
                typeRules.checkPayload(p, display);
            }
        }

        String template = values.string("key");
        List<KeyPart> keyParts = keyRules.check(values, template, parameters, display, toolClass);
        mcpHintRules.check(method, template, display);

        TypeElement reconciler = reconcilerRules.declared(values);
        boolean reconcilerUndefined = reconciler != null && reconcilerRules.reportIfUndefined(reconciler, values,
                display);
        boolean manualReview = ReconcilerRules.isManualReview(reconciler);
        TypeMirror returnType = method.getReturnType();
        TypeMirror storedResult = typeRules.storedResult(returnType);
        if (!suspend) {
            typeRules.checkResult(method, returnType, display);
        }
        if (reconciler != null && !reconcilerUndefined && !suspend) {
            reconcilerRules.check(values, reconciler, manualReview, storedResult, display, toolClass);
        }

        releaseGateRules.check(values, display, reconciler, manualReview,
                storedResult != returnType ? returnType : null);
        List<TypeElement> notAppliedOn = releaseGateRules.notAppliedOn(values, display);
        List<String> outbox = OutboxDeclaration.check(values, display);
        String name = nameRules.check(values, method, display);
        if (reporter.resetErrors() || toolClass == null) {
            return Optional.empty();
        }
        boolean downstreamKey = values.bool("downstreamKey");
        return Optional.of(new ToolModel(toolClass, method, name, values.string("store"), template, keyParts,
                downstreamKey, downstreamKey ? values.durationText("downstreamRetention") : null,
                values.enumConstant("retry"), reconciler, manualReview, notAppliedOn,
                values.enumConstant("effectBoundary"), values.durationText("lease"), values.durationText("retention"),
                "REQUIRED".equals(values.enumConstant("approval")), values.durationText("approvalValidity"),
                values.bool("transactional"), outbox, parameters, storedResult,
                method.getSimpleName() + descriptor(method)));
    }

    private String descriptor(ExecutableElement method) {
        StringBuilder d = new StringBuilder("(");
        for (VariableElement p : method.getParameters()) {
            d.append(typeChecks.descriptor(types.erasure(p.asType())));
        }
        return d.append(')').append(typeChecks.descriptor(types.erasure(method.getReturnType()))).toString();
    }

    static String display(ExecutableElement method) {
        return method.getEnclosingElement().getSimpleName() + "." + method.getSimpleName();
    }
}
