package io.idempotent.processor;

import io.idempotent.annotations.NotPayload;
import io.idempotent.policy.internal.KeyTemplate;
import io.idempotent.policy.internal.NotAppliedOnRule;
import io.idempotent.policy.internal.PolicyRules;
import io.idempotent.policy.internal.StoreNames;
import io.idempotent.policy.internal.ToolNames;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Turns one {@code @IdempotentTool} method into a {@link ToolModel}, or reports every problem it
 * has (all of them, not only the first) and returns nothing.
 */
final class ToolValidator {

    static final String RECONCILER = "io.idempotent.runtime.Reconciler";
    static final String MANUAL_REVIEW = "io.idempotent.runtime.ManualReview";

    /** Methods every object has, which are never a key's accessor. */
    private static final Set<String> OBJECT_METHODS = Set.of("hashCode", "toString", "getClass", "clone");

    private final Elements elements;
    private final Types types;
    private final TypeChecks typeChecks;
    private final PayloadTypeCheck payloadTypes;
    private final ResultTypeCheck resultTypes;
    private final Reporter reporter;
    /** The undefined types reported for the tool being validated (each once). */
    private final Set<String> undefinedTypes = new HashSet<>();

    ToolValidator(ProcessingEnvironment env, Reporter reporter) {
        this.elements = env.getElementUtils();
        this.types = env.getTypeUtils();
        this.typeChecks = new TypeChecks(env);
        this.payloadTypes = new PayloadTypeCheck(env, typeChecks);
        this.resultTypes = new ResultTypeCheck(env, typeChecks);
        this.reporter = reporter;
    }

    /** The annotation's values, and where to report a problem with each. */
    private final class Values {
        final Element element;
        final AnnotationMirror mirror;
        final Map<? extends ExecutableElement, ? extends AnnotationValue> explicit;
        final Map<? extends ExecutableElement, ? extends AnnotationValue> all;

        Values(Element element, AnnotationMirror mirror) {
            this.element = element;
            this.mirror = mirror;
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

        boolean bool(String attribute) {
            return Boolean.TRUE.equals(get(attribute));
        }

        String enumConstant(String attribute) {
            Object v = get(attribute);
            return v instanceof VariableElement constant ? constant.getSimpleName().toString() : String.valueOf(v);
        }

        /** The value the user wrote for {@code attribute}, or null when it is the default. */
        AnnotationValue explicitValue(String attribute) {
            return find(explicit, attribute);
        }

        void report(Diagnostic diagnostic, String attribute, Object... args) {
            reporter.report(diagnostic, element, mirror, attribute == null ? null : find(explicit, attribute), args);
        }

        private AnnotationValue find(Map<? extends ExecutableElement, ? extends AnnotationValue> values,
                String attribute) {
            for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e : values.entrySet()) {
                if (e.getKey().getSimpleName().contentEquals(attribute)) {
                    return e.getValue();
                }
            }
            return null;
        }
    }

    /**
     * Whether the last {@link #validate} met a type that is not defined: in a round before the
     * last, one that another processor has not generated yet, so the tool must be validated again
     * in the next round (and its diagnostics of this round dropped).
     */
    boolean sawUndefinedType() {
        return !undefinedTypes.isEmpty();
    }

    Optional<ToolModel> validate(ExecutableElement method, AnnotationMirror mirror) {
        reporter.resetErrors();
        undefinedTypes.clear();
        Values values = new Values(method, mirror);
        String display = display(method);
        TypeElement toolClass = checkShape(method, values, display);

        List<ToolModel.Parameter> parameters = new ArrayList<>();
        List<? extends VariableElement> params = method.getParameters();
        for (int i = 0; i < params.size(); i++) {
            VariableElement p = params.get(i);
            ContextParameter context = ContextParameter.of(p, types);
            boolean payload = p.getAnnotation(NotPayload.class) == null && context == null;
            parameters.add(new ToolModel.Parameter(i, p.getSimpleName().toString(), p.asType(), payload, context));
            boolean undefined = undefined(p.asType(), "parameter " + p.getSimpleName(), display, p, null, null);
            if (!undefined && context != null && context.entrySource()) {
                checkContextAccessors(p, context, display);
            }
            PayloadTypeCheck.Finding unhashable = undefined || !payload ? null
                    : payloadTypes.find(p.asType(), p.getSimpleName().toString());
            if (unhashable != null) {
                reporter.report(Diagnostic.PAYLOAD_TYPE, p, null, null, p.getSimpleName(), display, p.asType(),
                        where(unhashable.path(), unhashable.type(), p.getSimpleName().toString()),
                        unhashable.reason().why(), unhashable.reason().fix());
            }
        }

        String template = values.string("key");
        List<KeyPart> keyParts = checkKey(values, template, parameters, display, toolClass);

        boolean downstreamKey = values.bool("downstreamKey");
        String retry = values.enumConstant("retry");
        TypeElement reconciler = reconciler(values);
        boolean reconcilerUndefined = reconciler != null && undefined(reconciler.asType(), "reconciler", display,
                method, mirror, values.explicitValue("reconciler"));
        boolean manualReview = reconciler != null && reconciler.getQualifiedName().contentEquals(MANUAL_REVIEW);

        TypeMirror returnType = method.getReturnType();
        checkResult(method, returnType, display);
        if (reconciler != null && !reconcilerUndefined) {
            checkReconciler(values, reconciler, manualReview, returnType, display, toolClass);
        }

        String downstreamRetentionText = values.string("downstreamRetention");
        Duration lease = duration(values, "lease");
        Duration retention = duration(values, "retention");
        Duration downstreamRetention = downstreamRetentionText.isBlank() ? null
                : duration(values, "downstreamRetention");
        PolicyRules.Reconciling reconciling = reconciler == null ? PolicyRules.Reconciling.NONE
                : manualReview ? PolicyRules.Reconciling.MANUAL_REVIEW : PolicyRules.Reconciling.REAL;
        for (PolicyRules.Violation violation : PolicyRules.check(new PolicyRules.Facts(downstreamKey, retry,
                reconciling, !downstreamRetentionText.isBlank(), downstreamRetention, lease, retention))) {
            switch (violation) {
                case NO_DOWNSTREAM_ANSWER -> values.report(Diagnostic.NO_DOWNSTREAM_ANSWER, violation.attribute(),
                        display);
                case UNCERTAIN_RETRY -> values.report(Diagnostic.UNCERTAIN_RETRY, violation.attribute(), display,
                        reconciler == null ? "no reconciler is declared" : "ManualReview only waits for a person");
                case DOWNSTREAM_RETENTION_MISSING -> values.report(Diagnostic.DOWNSTREAM_RETENTION_MISSING,
                        violation.attribute());
                case LEASE_POSITIVE -> values.report(Diagnostic.LEASE_POSITIVE, violation.attribute(),
                        values.string("lease"));
                case LEASE_VS_DOWNSTREAM -> values.report(Diagnostic.LEASE_VS_DOWNSTREAM, violation.attribute(),
                        values.string("lease"), downstreamRetentionText);
                case RETENTION_VS_LEASE -> values.report(Diagnostic.RETENTION_VS_LEASE, violation.attribute(),
                        values.string("retention"), values.string("lease"));
                case LEASE_TOO_SHORT -> values.report(Diagnostic.LEASE_TOO_SHORT, violation.attribute(),
                        values.string("lease"), lease.toMillis());
                case LEASE_TOO_LONG, RETENTION_TOO_LONG, DOWNSTREAM_RETENTION_TOO_LONG -> values.report(
                        Diagnostic.DURATION_TOO_LONG, violation.attribute(), violation.attribute(),
                        values.string(violation.attribute()));
                case DOWNSTREAM_RETENTION_UNUSED -> values.report(Diagnostic.DOWNSTREAM_RETENTION_UNUSED,
                        violation.attribute(), downstreamRetentionText);
            }
        }

        List<TypeElement> notAppliedOn = new ArrayList<>();
        Object declared = values.get("notAppliedOn");
        if (declared instanceof List<?> list) {
            for (Object item : list) {
                AnnotationValue position = item instanceof AnnotationValue av ? av : null;
                Object v = position != null ? position.getValue() : item;
                if (v instanceof DeclaredType type) {
                    notAppliedOn.add((TypeElement) type.asElement());
                    checkNotAppliedOn(values, type, position, display);
                }
            }
        }

        String storeProblem = StoreNames.problem(values.string("store"));
        if (storeProblem != null) {
            values.report(Diagnostic.STORE_NAME, "store", storeProblem);
        }

        // Only the default (empty) means the method's name: blanks given on purpose are a mistake.
        String name = values.string("name").isEmpty() ? method.getSimpleName().toString() : values.string("name");
        String nameProblem = ToolNames.problem(name);
        if (nameProblem != null) {
            values.report(Diagnostic.TOOL_NAME, "name", display, ToolNames.printable(name, 40), nameProblem);
        }
        if (reporter.resetErrors() || toolClass == null) {
            return Optional.empty();
        }
        return Optional.of(new ToolModel(toolClass, method, name, values.string("store"), template, keyParts,
                downstreamKey, downstreamKey ? downstreamRetentionText : null, retry, reconciler, manualReview,
                notAppliedOn, values.enumConstant("effectBoundary"), values.string("lease"), values.string("retention"),
                parameters, returnType, method.getSimpleName() + descriptor(method)));
    }

    /** Reports where the key is wrong, or returns its parts. */
    private List<KeyPart> checkKey(Values values, String template, List<ToolModel.Parameter> parameters,
            String display, TypeElement toolClass) {
        if (KeyTemplate.isEmpty(template)) {
            values.report(Diagnostic.KEY_EMPTY, "key");
            return List.of();
        }
        if (KeyTemplate.hasControlCharacter(template)) {
            values.report(Diagnostic.KEY_CONTROL, "key", template);
        }
        KeyTemplate parsed = KeyTemplate.parse(template);
        if (parsed.problem() != null) {
            values.report(Diagnostic.KEY_BRACES, "key", template, parsed.problem());
            return List.of();
        }
        List<KeyPart> parts = new ArrayList<>();
        Set<String> direct = new TreeSet<>();
        boolean placeholder = false;
        boolean stepParameterReported = false;
        // {step} or {context.NAME} in the key, resolved or not: the key already names a decision identity.
        boolean decisionIdentity = false;
        for (KeyTemplate.Piece piece : parsed.pieces()) {
            if (piece.literal() != null) {
                parts.add(new KeyPart.Literal(piece.literal()));
                continue;
            }
            placeholder = true;
            List<String> segments = piece.placeholder().segments();
            String first = segments.get(0);
            ToolModel.Parameter param = parameters.stream().filter(p -> p.name().equals(first)).findFirst()
                    .orElse(null);
            if (KeyTemplate.namesStep(piece.placeholder().text())) {
                decisionIdentity = true;
                if (param != null && !stepParameterReported) {
                    stepParameterReported = true;
                    reporter.report(Diagnostic.STEP_PARAMETER, ((ExecutableElement) values.element).getParameters()
                            .get(param.index()), null, null, param.name(), display, template);
                }
                if (segments.size() > 1) {
                    values.report(Diagnostic.KEY_ACCESSOR, "key", template, piece.placeholder().text(),
                            "the step key (a String)", segments.get(1), "none");
                }
                checkOneContextSource(values, template, piece.placeholder().text(), parameters, display, false);
                parts.add(new KeyPart.StepKey());
                continue;
            }
            if (first.equals("context") && segments.size() > 1 && (param == null || param.context() != null)) {
                decisionIdentity = true;
                if (checkOneContextSource(values, template, piece.placeholder().text(), parameters, display, true)) {
                    parts.add(new KeyPart.ContextEntry(piece.placeholder().text(),
                            String.join(".", segments.subList(1, segments.size()))));
                }
                continue;
            }
            if (param == null) {
                values.report(Diagnostic.KEY_PLACEHOLDER, "key", template, piece.placeholder().text(), display, first,
                        parameters.isEmpty() ? "none" : String.join(", ",
                                parameters.stream().map(ToolModel.Parameter::name).toList()));
                continue;
            }
            List<KeyPart.Accessor> accessors = new ArrayList<>();
            TypeMirror current = param.type();
            String path = first;
            boolean resolved = true;
            for (String segment : segments.subList(1, segments.size())) {
                if (undefined(current, "{" + path + "} in the key", display, values.element, values.mirror,
                        values.explicitValue("key"))) {
                    resolved = false;
                    break;
                }
                KeyPart.Accessor accessor = accessor(current, path + "." + segment, segment, toolClass);
                if (accessor == null) {
                    values.report(Diagnostic.KEY_ACCESSOR, "key", template, piece.placeholder().text(), path + " ("
                            + current + ")", segment, available(current, toolClass));
                    resolved = false;
                    break;
                }
                accessors.add(accessor);
                current = accessor.type();
                path = accessor.path();
            }
            if (resolved && undefined(current, "{" + path + "} in the key", display, values.element, values.mirror,
                    values.explicitValue("key"))) {
                resolved = false;
            }
            if (resolved) {
                String unstable = typeChecks.keyPartProblem(current, piece.placeholder().text());
                if (unstable != null) {
                    values.report(Diagnostic.KEY_PART_TYPE, "key", template, piece.placeholder().text(), current,
                            unstable);
                    continue;
                }
                if (accessors.isEmpty()) {
                    direct.add(first);
                }
                parts.add(new KeyPart.Argument(piece.placeholder().text(), param.index(), param.type(), accessors));
            }
        }
        if (!placeholder) {
            values.report(Diagnostic.KEY_NO_PLACEHOLDER, "key", template, display);
        } else if (parameters.stream().anyMatch(p -> p.context() == null) && !decisionIdentity
                && direct.size() == parameters.stream().filter(p -> p.context() == null).count()) {
            values.report(Diagnostic.KEY_COLLAPSES, "key", template, display);
        }
        return parts;
    }

    /**
     * Checks that the key can tell which context parameter its {@code {step}} or
     * {@code {context.NAME}} reads: {@code {context.NAME}} needs exactly one, {@code {step}} at
     * most one (with none it reads the thread's Step).
     *
     * @return whether exactly one context parameter carries entries
     */
    private boolean checkOneContextSource(Values values, String template, String placeholder,
            List<ToolModel.Parameter> parameters, String display, boolean required) {
        List<ToolModel.Parameter> sources = parameters.stream()
                .filter(p -> p.context() != null && p.context().entrySource()).toList();
        if (sources.isEmpty() && required) {
            values.report(Diagnostic.CONTEXT_MISSING, "key", template, placeholder, display);
        } else if (sources.size() > 1) {
            values.report(Diagnostic.CONTEXT_AMBIGUOUS, "key", template, placeholder, display, sources.size(),
                    String.join(", ", sources.stream().map(ToolModel.Parameter::name).toList()));
        }
        return sources.size() == 1;
    }

    /** Reports a context type whose version lacks an accessor the generated binding would call. */
    private void checkContextAccessors(VariableElement parameter, ContextParameter context, String display) {
        TypeMirror current = parameter.asType();
        for (String name : context.accessors()) {
            DeclaredType declared = declared(current);
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

    /** The accessor {@code name} on {@code type}: a record component or method, a getter, a public field. */
    private KeyPart.Accessor accessor(TypeMirror type, String path, String name, TypeElement toolClass) {
        DeclaredType declared = declared(type);
        if (declared == null) {
            return null;
        }
        TypeElement element = (TypeElement) declared.asElement();
        List<ExecutableElement> methods = ElementFilter.methodsIn(elements.getAllMembers(element));
        String capitalised = Character.toUpperCase(name.charAt(0)) + name.substring(1);
        for (String candidate : List.of(name, "get" + capitalised, "is" + capitalised)) {
            for (ExecutableElement m : methods) {
                if (m.getSimpleName().contentEquals(candidate) && isReadable(m, toolClass)) {
                    TypeMirror result = ((javax.lang.model.type.ExecutableType) types.asMemberOf(declared, m))
                            .getReturnType();
                    if (candidate.startsWith("is") && !candidate.equals(name)
                            && result.getKind() != TypeKind.BOOLEAN) {
                        continue;
                    }
                    return new KeyPart.Accessor(path, "." + candidate + "()", result);
                }
            }
        }
        for (VariableElement f : ElementFilter.fieldsIn(elements.getAllMembers(element))) {
            if (f.getSimpleName().contentEquals(name) && f.getModifiers().contains(Modifier.PUBLIC)
                    && !f.getModifiers().contains(Modifier.STATIC)) {
                return new KeyPart.Accessor(path, "." + name, types.asMemberOf(declared, f));
            }
        }
        return null;
    }

    private boolean isReadable(ExecutableElement m, TypeElement toolClass) {
        if (!m.getParameters().isEmpty() || m.getReturnType().getKind() == TypeKind.VOID
                || m.getModifiers().contains(Modifier.STATIC) || m.getModifiers().contains(Modifier.PRIVATE)
                || OBJECT_METHODS.contains(m.getSimpleName().toString())
                || ((TypeElement) m.getEnclosingElement()).getQualifiedName().toString().startsWith("java.lang.")) {
            return false;
        }
        return m.getModifiers().contains(Modifier.PUBLIC)
                || elements.getPackageOf(m).equals(elements.getPackageOf(toolClass));
    }

    private String available(TypeMirror type, TypeElement toolClass) {
        DeclaredType declared = declared(type);
        if (declared == null) {
            return "none: " + type + " has no accessors";
        }
        Set<String> names = new TreeSet<>();
        TypeElement element = (TypeElement) declared.asElement();
        for (ExecutableElement m : ElementFilter.methodsIn(elements.getAllMembers(element))) {
            if (isReadable(m, toolClass)) {
                String n = m.getSimpleName().toString();
                if (n.startsWith("get") && n.length() > 3) {
                    n = Character.toLowerCase(n.charAt(3)) + n.substring(4);
                } else if (n.startsWith("is") && n.length() > 2 && m.getReturnType().getKind() == TypeKind.BOOLEAN) {
                    n = Character.toLowerCase(n.charAt(2)) + n.substring(3);
                }
                names.add(n);
            }
        }
        for (VariableElement f : ElementFilter.fieldsIn(elements.getAllMembers(element))) {
            if (f.getModifiers().contains(Modifier.PUBLIC) && !f.getModifiers().contains(Modifier.STATIC)) {
                names.add(f.getSimpleName().toString());
            }
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    private DeclaredType declared(TypeMirror type) {
        if (type instanceof TypeVariable variable) {
            return declared(variable.getUpperBound());
        }
        return type instanceof DeclaredType d ? d : null;
    }

    /** Checks that the agent can wrap the method and the binding can name its class; returns the class. */
    private TypeElement checkShape(ExecutableElement method, Values values, String display) {
        if (method.getKind() != ElementKind.METHOD) {
            reporter.report(Diagnostic.METHOD_SHAPE, method, values.mirror, null, display, "is a constructor",
                    "move the effect into a method");
            return null;
        }
        Set<Modifier> modifiers = method.getModifiers();
        for (Modifier bad : List.of(Modifier.PRIVATE, Modifier.ABSTRACT, Modifier.NATIVE)) {
            if (modifiers.contains(bad)) {
                reporter.report(Diagnostic.METHOD_SHAPE, method, values.mirror, null, display, "is "
                        + bad.toString(), bad == Modifier.PRIVATE ? "make it package-private or public"
                        : "annotate the implementing method instead");
            }
        }
        if (!(method.getEnclosingElement() instanceof TypeElement toolClass)) {
            return null;
        }
        for (Element e = toolClass; e instanceof TypeElement type; e = e.getEnclosingElement()) {
            if (type.getNestingKind() == NestingKind.ANONYMOUS || type.getNestingKind() == NestingKind.LOCAL) {
                reporter.report(Diagnostic.TOOL_CLASS, method, values.mirror, null, display, "an anonymous or local"
                        + " class", "the agent instruments named classes and the binding must name the class; move"
                        + " the method to a top-level or nested class");
                return null;
            }
            if (type.getModifiers().contains(Modifier.PRIVATE)) {
                reporter.report(Diagnostic.TOOL_CLASS, method, values.mirror, null, display, "the private class "
                        + type.getQualifiedName(), "the generated binding cannot refer to it; make it"
                        + " package-private or public");
                return null;
            }
        }
        return toolClass;
    }

    /**
     * Reports {@code type} if it (or a type inside it) is not defined, once per type and tool, and
     * says whether it was; nothing else is checked about an undefined type.
     */
    private boolean undefined(TypeMirror type, String what, String display, Element element, AnnotationMirror mirror,
            AnnotationValue value) {
        if (!typeChecks.mentionsUndefined(type)) {
            return false;
        }
        if (undefinedTypes.add(type.toString())) {
            reporter.report(Diagnostic.TYPE_UNDEFINED, element, mirror, value, what, display, type);
        }
        return true;
    }

    /** An exception in notAppliedOn is taken as proof that nothing happened: it must be specific. */
    private void checkNotAppliedOn(Values values, DeclaredType type, AnnotationValue position, String display) {
        if (undefined(type, "notAppliedOn", display, values.element, values.mirror, position)) {
            return;
        }
        String name = ((TypeElement) type.asElement()).getQualifiedName().toString();
        switch (NotAppliedOnRule.judge(name)) {
            case TOO_BROAD -> reporter.report(Diagnostic.NOT_APPLIED_ON_BROAD, values.element, values.mirror, position,
                    name, display);
            case IO_AFTER_SEND -> reporter.report(Diagnostic.NOT_APPLIED_ON_IO, values.element, values.mirror,
                    position, name, display);
            case SPECIFIC -> {
            }
        }
    }

    private void checkResult(ExecutableElement method, TypeMirror returnType, String display) {
        if (undefined(returnType, "the result", display, method, null, null)) {
            return;
        }
        TypeChecks.Problem problem = typeChecks.check(returnType);
        if (problem == TypeChecks.Problem.ASYNC) {
            reporter.report(Diagnostic.ASYNC_RESULT, method, null, null, display, returnType);
        } else if (problem == TypeChecks.Problem.NOT_DATA || typeChecks.mentionsTypeVariable(returnType)) {
            reporter.report(Diagnostic.RESULT_TYPE, method, null, null, display, returnType);
        } else {
            ResultTypeCheck.Finding unreadable = resultTypes.find(returnType);
            if (unreadable != null) {
                String what = unreadable.path().equals(ResultTypeCheck.ROOT) ? unreadable.type().toString()
                        : unreadable.path().endsWith("[]") ? "an element of " + unreadable.path().substring(0,
                                unreadable.path().length() - 2) + " (" + unreadable.type() + ")"
                                : unreadable.path() + " (" + unreadable.type() + ")";
                reporter.report(Diagnostic.RESULT_READ_BACK, method, null, null, display, returnType, what,
                        unreadable.reason().why());
            }
        }
    }

    private TypeElement reconciler(Values values) {
        Object v = values.get("reconciler");
        if (v instanceof DeclaredType type) {
            return (TypeElement) type.asElement();
        }
        return null;
    }

    private void checkReconciler(Values values, TypeElement reconciler, boolean manualReview, TypeMirror returnType,
            String display, TypeElement toolClass) {
        TypeElement contract = elements.getTypeElement(RECONCILER);
        if (contract == null) {
            values.report(Diagnostic.RUNTIME_MISSING, "reconciler", RECONCILER);
            return;
        }
        String name = reconciler.getQualifiedName().toString();
        if (reconciler.getKind() != ElementKind.CLASS || reconciler.getModifiers().contains(Modifier.ABSTRACT)) {
            values.report(Diagnostic.RECONCILER_CLASS, "reconciler", name, "is not a concrete class; the runtime"
                    + " creates it with new, so give a class that is not abstract");
            return;
        }
        if (reconciler.getNestingKind() == NestingKind.MEMBER && !reconciler.getModifiers().contains(Modifier.STATIC)) {
            values.report(Diagnostic.RECONCILER_CLASS, "reconciler", name, "is an inner class; make it static");
            return;
        }
        boolean visible = reconciler.getModifiers().contains(Modifier.PUBLIC)
                || (!reconciler.getModifiers().contains(Modifier.PRIVATE)
                        && elements.getPackageOf(reconciler).equals(elements.getPackageOf(toolClass)));
        boolean publicConstructor = ElementFilter.constructorsIn(reconciler.getEnclosedElements()).stream()
                .anyMatch(c -> c.getParameters().isEmpty() && c.getModifiers().contains(Modifier.PUBLIC));
        if (!visible || !publicConstructor) {
            values.report(Diagnostic.RECONCILER_CLASS, "reconciler", name, "has no public no-argument constructor"
                    + " that the generated binding can call; add one (and make the class public)");
            return;
        }
        TypeMirror produced = reconcilerResult(reconciler.asType(), types.erasure(contract.asType()));
        if (produced == null) {
            values.report(Diagnostic.RECONCILER_CLASS, "reconciler", name, "does not implement " + RECONCILER);
            return;
        }
        if (manualReview) {
            return; // it never answers APPLIED, so it never produces a result
        }
        boolean fits;
        if (returnType.getKind() == TypeKind.VOID) {
            String producedName = types.erasure(produced).toString();
            fits = producedName.equals("java.lang.Void") || producedName.equals("java.lang.Object");
        } else {
            fits = produced.getKind() == TypeKind.DECLARED
                    && !types.erasure(produced).toString().equals("java.lang.Object")
                    && types.isAssignable(produced, typeChecks.boxed(returnType));
        }
        if (!fits) {
            String wanted = returnType.getKind() == TypeKind.VOID ? "Void" : typeChecks.boxed(returnType).toString();
            values.report(Diagnostic.RECONCILER_RESULT, "reconciler", name, produced, display, returnType, wanted);
        }
    }

    /** The R of {@code Reconciler<R>} among the supertypes of {@code type}, or null. */
    private TypeMirror reconcilerResult(TypeMirror type, TypeMirror contract) {
        for (TypeMirror supertype : types.directSupertypes(type)) {
            if (types.isSameType(types.erasure(supertype), contract)) {
                List<? extends TypeMirror> arguments = ((DeclaredType) supertype).getTypeArguments();
                return arguments.isEmpty() ? elements.getTypeElement("java.lang.Object").asType() : arguments.get(0);
            }
            TypeMirror found = reconcilerResult(supertype, contract);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private Duration duration(Values values, String attribute) {
        String text = values.string(attribute);
        try {
            return Duration.parse(text.strip());
        } catch (DateTimeParseException e) {
            values.report(Diagnostic.DURATION, attribute, attribute, text);
            return null;
        }
    }

    private String descriptor(ExecutableElement method) {
        StringBuilder d = new StringBuilder("(");
        for (VariableElement p : method.getParameters()) {
            d.append(typeChecks.descriptor(types.erasure(p.asType())));
        }
        return d.append(')').append(typeChecks.descriptor(types.erasure(method.getReturnType()))).toString();
    }

    /**
     * Where inside a parameter or result a problem is, for a message: nothing when it is the whole
     * thing ({@code root}), else {@code ", whose order.items is a java.util.Iterator<...>"}.
     */
    static String where(String path, TypeMirror type, String root) {
        if (path.equals(root)) {
            return "";
        }
        return path.endsWith("[]") ? ", in which an element of " + path.substring(0, path.length() - 2) + " is a "
                + type : ", whose " + path + " is a " + type;
    }

    static String display(ExecutableElement method) {
        return method.getEnclosingElement().getSimpleName() + "." + method.getSimpleName();
    }
}
