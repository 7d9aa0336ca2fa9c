package io.idempotent.processor;

import io.idempotent.policy.internal.KeyTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The key and its sources: the template is not empty, has no control character and its braces
 * close ({@code [IdemKeyEmpty]}, {@code [IdemKeyControl]}, {@code [IdemKeyBraces]}); each
 * placeholder names a parameter ({@code [IdemKeyPlaceholder]}) and accessors that exist and can be
 * read ({@code [IdemKeyAccessor]}), ending on a type with one stable text
 * ({@code [IdemKeyPartType]}); the key has a placeholder ({@code [IdemKeyConstant]}) and is more
 * than every parameter ({@code [IdemKeyCollapses]}, a warning). Its {@code {step}} and
 * {@code {context.NAME}} are resolved through {@link ContextParameterRules}.
 */
final class KeyRules {

    /** Methods every object has, which are never a key's accessor. */
    private static final Set<String> OBJECT_METHODS = Set.of("hashCode", "toString", "getClass", "clone");

    private final Elements elements;
    private final Types types;
    private final TypeChecks typeChecks;
    private final UndefinedTypes undefinedTypes;
    private final ContextParameterRules contextRules;

    KeyRules(Elements elements, Types types, TypeChecks typeChecks, UndefinedTypes undefinedTypes,
            ContextParameterRules contextRules) {
        this.elements = elements;
        this.types = types;
        this.typeChecks = typeChecks;
        this.undefinedTypes = undefinedTypes;
        this.contextRules = contextRules;
    }

    /** Reports where the key is wrong, or returns its parts (those that resolved). */
    List<KeyPart> check(ToolAnnotation values, String template, List<ToolModel.Parameter> parameters,
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
                    contextRules.reportStepParameter(values, param, display, template);
                }
                if (segments.size() > 1) {
                    values.report(Diagnostic.KEY_ACCESSOR, "key", template, piece.placeholder().text(),
                            "the step key (a String)", segments.get(1), "none");
                }
                contextRules.checkOneSource(values, template, piece.placeholder().text(), parameters, display, false);
                parts.add(new KeyPart.StepKey());
                continue;
            }
            if (first.equals("context") && segments.size() > 1 && (param == null || param.context() != null)) {
                decisionIdentity = true;
                if (contextRules.checkOneSource(values, template, piece.placeholder().text(), parameters, display, true)) {
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
                if (undefinedTypes.reportIfUndefined(current, "{" + path + "} in the key", display, values.element, values.mirror,
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
            if (resolved && undefinedTypes.reportIfUndefined(current, "{" + path + "} in the key", display, values.element, values.mirror,
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

    /** The accessor {@code name} on {@code type}: a record component or method, a getter, a public field. */
    private KeyPart.Accessor accessor(TypeMirror type, String path, String name, TypeElement toolClass) {
        DeclaredType declared = TypeChecks.declared(type);
        if (declared == null) {
            return null;
        }
        TypeElement element = (TypeElement) declared.asElement();
        List<ExecutableElement> methods = ElementFilter.methodsIn(elements.getAllMembers(element));
        String capitalised = Character.toUpperCase(name.charAt(0)) + name.substring(1);
        for (String candidate : List.of(name, "get" + capitalised, "is" + capitalised)) {
            for (ExecutableElement m : methods) {
                if (m.getSimpleName().contentEquals(candidate) && isReadable(m, toolClass)) {
                    TypeMirror result = ((ExecutableType) types.asMemberOf(declared, m))
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
        DeclaredType declared = TypeChecks.declared(type);
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
}
