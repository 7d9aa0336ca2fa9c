package io.idempotent.processor;

import java.util.HashSet;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/**
 * Whether a payload parameter's value can be hashed without changing it and without losing what
 * it says: the parameter's type and every type inside it (type arguments, array elements, record
 * components, bean properties, recursively; each type once, so cyclic types end). Hashing reads
 * the value as JSON: an iterator or a stream would be used up (the body then sees it empty), a
 * function or lambda is written as {@code {}} (a changed one hashes the same), and a live resource
 * is not data at all.
 */
final class PayloadTypeCheck {

    /** Why a type cannot be hashed, and what to pass instead. */
    enum Reason {
        /** Read once: hashing would use it up. */
        CONSUMED("hashing the payload would use it up, and the body would then see it empty",
                "pass the values as a List"),
        /** A function: it hashes as {}. */
        FUNCTION("a function or lambda hashes as {}, so a call with a changed one would replay the first call's"
                + " result", "pass the values it stands for (as a List or a value type)"),
        /** A live resource, a future, raw Object or a type variable. */
        NOT_DATA("it is a live resource or an unknown type, not data", "pass a value type");

        private final String why;
        private final String fix;

        Reason(String why, String fix) {
            this.why = why;
            this.fix = fix;
        }

        String why() {
            return why;
        }

        String fix() {
            return fix;
        }
    }

    /**
     * The first type inside a payload parameter that cannot be hashed.
     *
     * @param path where it is, from the parameter: {@code order.items}; {@code []} stands for an
     *     element of a collection, map or array
     */
    record Finding(String path, TypeMirror type, Reason reason) {
    }

    private final TypeChecks typeChecks;
    private final JsonShape shape;

    PayloadTypeCheck(ProcessingEnvironment env, TypeChecks typeChecks) {
        this.typeChecks = typeChecks;
        this.shape = new JsonShape(env);
    }

    /** The first problem inside a parameter of this type named {@code parameter}, or null. */
    Finding find(TypeMirror type, String parameter) {
        return find(type, parameter, new HashSet<>());
    }

    private Finding find(TypeMirror type, String path, Set<String> seen) {
        switch (type.getKind()) {
            case ARRAY:
                return find(((ArrayType) type).getComponentType(), path + "[]", seen);
            case TYPEVAR:
                return new Finding(path, type, Reason.NOT_DATA);
            case WILDCARD: {
                TypeMirror bound = ((WildcardType) type).getExtendsBound();
                return bound == null ? new Finding(path, type, Reason.NOT_DATA) : find(bound, path, seen);
            }
            case DECLARED:
                break;
            default:
                return null; // primitives
        }
        DeclaredType declared = (DeclaredType) type;
        TypeElement element = (TypeElement) declared.asElement();
        if (typeChecks.isConsumable(declared)) {
            return new Finding(path, type, Reason.CONSUMED);
        }
        if (shape.isFunction(element)) {
            return new Finding(path, type, Reason.FUNCTION);
        }
        if (typeChecks.ownProblem(declared) != TypeChecks.Problem.NONE) {
            return new Finding(path, type, Reason.NOT_DATA);
        }
        if (!seen.add(type.toString())) {
            return null; // already being checked: a type that contains itself
        }
        if (JsonShape.isWellKnown(element)) {
            // Its type arguments are its elements (a List's, a Map's, an Optional's); the JDK's own
            // properties are Jackson's business.
            boolean container = typeChecks.isSubtype(type, "java.lang.Iterable")
                    || typeChecks.isSubtype(type, "java.util.Map");
            for (TypeMirror argument : declared.getTypeArguments()) {
                Finding inside = find(argument, container ? path + "[]" : path, seen);
                if (inside != null) {
                    return inside;
                }
            }
            return null;
        }
        if (element.getKind() == ElementKind.ENUM) {
            return null;
        }
        for (JsonShape.Property property : shape.properties(declared)) {
            Finding inside = find(property.type(), path + "." + property.name(), seen);
            if (inside != null) {
                return inside;
            }
        }
        return null;
    }
}
