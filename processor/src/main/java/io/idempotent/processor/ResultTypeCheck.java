package io.idempotent.processor;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/**
 * Whether a result that was stored can be read back into the method's return type for a replay,
 * as far as the type shows it: the return type and every type inside it (type arguments, array
 * elements, record components, bean properties). A replay reads the stored JSON with Jackson's
 * defaults, so an interface or abstract class needs type information to name the class to
 * create, a class needs a creator, and a type that holds itself other than through a collection
 * or an {@code Optional} (a list of children is a tree, and fine) is a value that only null can
 * end, or one that refers back to itself, which cannot be written at all. What the type does not
 * show (a getter that throws) the runtime checks when the first result is stored.
 */
final class ResultTypeCheck {

    /** Why a type cannot be read back, with the fix. */
    enum Reason {
        /** An interface or abstract class without Jackson type information. */
        NO_TYPE_INFORMATION("an interface or abstract class without type information, so reading it back cannot"
                + " know which class to create; annotate it with @JsonTypeInfo and @JsonSubTypes, or use a concrete"
                + " type"),
        /** A concrete class Jackson cannot create. */
        NO_CREATOR("a class with no creator to read it back with (no no-argument constructor, no @JsonCreator, not a"
                + " record); make it a record, or add a no-argument constructor or a @JsonCreator whose parameters"
                + " are named with @JsonProperty(\"...\")"),
        /**
         * A {@code @JsonCreator} with a parameter that has no {@code @JsonProperty} name: Jackson
         * finds the name only with {@code -parameters} and its parameter-names module together.
         */
        UNNAMED_CREATOR_PARAMETERS("a @JsonCreator whose parameters are not all named: Jackson reads a name that"
                + " is not in the source only with javac -parameters and its parameter-names module together, which"
                + " the build cannot see; name each parameter with @JsonProperty(\"...\"), or, for one parameter that"
                + " holds the whole value, use @JsonCreator(mode = JsonCreator.Mode.DELEGATING)"),
        /** A builder ({@code @JsonDeserialize(builder = ...)}) without its build method. */
        NO_BUILD_METHOD("a class whose builder (%s) has no method %s() returning a %s; add it, or name the method"
                + " with @JsonPOJOBuilder(buildMethodName = \"...\") on the builder"),
        /** A Kotlin class with no no-argument constructor, and no jackson-module-kotlin to call its own. */
        KOTLIN_WITHOUT_MODULE("a Kotlin class whose constructor Jackson can call only with jackson-module-kotlin,"
                + " which is not on the class path; add com.fasterxml.jackson.module:jackson-module-kotlin to the"
                + " application (the runtime's default ObjectMapper registers every module on the class path), or"
                + " give every property a default value (Kotlin then adds a no-argument constructor)"),
        /** An inner (non-static) class, which needs an enclosing instance. */
        INNER_CLASS("an inner class, which needs an instance of its enclosing class to be created; make it static"),
        /** A type that holds itself directly. */
        CYCLIC("a type that holds itself (not through a collection or an Optional): a value of it that refers"
                + " back to itself cannot be stored, and one that does not ends only in null; return ids for the"
                + " related values, or hold nested ones in a List");

        private final String why;

        Reason(String why) {
            this.why = why;
        }

        String why(List<String> args) {
            return why.formatted(args.toArray());
        }
    }

    /**
     * The first type inside a result that cannot be read back.
     *
     * @param path where it is, from {@code result}: {@code result.payment}; {@code []} stands for an
     *     element of a collection, map or array
     */
    record Finding(String path, TypeMirror type, Reason reason, List<String> args) {

        Finding(String path, TypeMirror type, Reason reason) {
            this(path, type, reason, List.of());
        }

        /** What the type is, with its fix. */
        String why() {
            return reason.why(args);
        }
    }

    static final String ROOT = "result";

    private final TypeChecks typeChecks;
    private final JsonShape shape;

    ResultTypeCheck(ProcessingEnvironment env, TypeChecks typeChecks) {
        this.typeChecks = typeChecks;
        this.shape = new JsonShape(env);
    }

    /** The first problem inside the return type, or null. */
    Finding find(TypeMirror returnType) {
        return find(returnType, ROOT, new HashSet<>(), new HashSet<>());
    }

    /**
     * @param checked every type checked or being checked (each is checked once)
     * @param enclosing the types being checked that hold this one directly, since the last container
     */
    private Finding find(TypeMirror type, String path, Set<String> checked, Set<String> enclosing) {
        switch (type.getKind()) {
            case ARRAY:
                return find(((ArrayType) type).getComponentType(), path + "[]", checked, new HashSet<>());
            case WILDCARD: {
                TypeMirror bound = ((WildcardType) type).getExtendsBound();
                return bound == null ? null : find(bound, path, checked, enclosing);
            }
            case DECLARED:
                break;
            default:
                return null; // primitives and void; type variables are the result check's (IdemResultType)
        }
        DeclaredType declared = (DeclaredType) type;
        TypeElement element = (TypeElement) declared.asElement();
        String name = declared.toString();
        if (enclosing.contains(name)) {
            return new Finding(path, type, Reason.CYCLIC);
        }
        if (!checked.add(name)) {
            return null;
        }
        boolean container = typeChecks.isSubtype(type, "java.lang.Iterable")
                || typeChecks.isSubtype(type, "java.util.Map");
        if (JsonShape.isWellKnown(element) || container) {
            // Collections and maps are Jackson's (or a registered module's) to create; their elements
            // are looked into. A container starts afresh: a List<Node> inside a Node is a tree, which
            // ends in empty lists.
            for (TypeMirror argument : declared.getTypeArguments()) {
                Finding inside = find(argument, container ? path + "[]" : path, checked, new HashSet<>());
                if (inside != null) {
                    return inside;
                }
            }
            return null;
        }
        if (element.getKind() == ElementKind.ENUM) {
            return null;
        }
        if (element.getKind() == ElementKind.INTERFACE || element.getModifiers().contains(Modifier.ABSTRACT)) {
            // With type information, the subtypes are Jackson's to choose; none is known here.
            return shape.hasTypeInformation(element) ? null : new Finding(path, type, Reason.NO_TYPE_INFORMATION);
        }
        if (element.getKind() == ElementKind.CLASS) {
            if (element.getNestingKind() == NestingKind.MEMBER && !element.getModifiers().contains(Modifier.STATIC)) {
                return new Finding(path, type, Reason.INNER_CLASS);
            }
            JsonShape.CreatorProblem creator = shape.creatorProblem(element);
            if (creator != null) {
                return new Finding(path, type, creator.reason(), creator.args());
            }
        }
        Set<String> inner = new HashSet<>(enclosing);
        inner.add(name);
        for (JsonShape.Property property : shape.properties(declared)) {
            Finding inside = find(property.type(), path + "." + property.name(), checked, inner);
            if (inside != null) {
                return inside;
            }
        }
        return null;
    }
}
