package io.idempotent.processor;

import io.idempotent.policy.internal.OnePassTypes;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Whether a type can be stored and replayed as JSON (results) or hashed as JSON (payload
 * arguments): value types are fine, handles to live resources, lazy sequences, futures, raw
 * {@code Object} and type variables are not.
 */
final class TypeChecks {

    /**
     * Other supertypes whose values are live resources or computations, not data (the one-pass
     * ones, channels among them, are {@link OnePassTypes}'s, shared with the runtime).
     */
    private static final List<String> NOT_DATA = List.of("java.io.OutputStream", "java.io.Writer", "java.sql.Connection", "java.sql.Statement", "java.sql.ResultSet",
            "javax.sql.DataSource", "java.lang.Thread", "java.lang.ThreadGroup", "java.lang.ClassLoader",
            "java.net.Socket", "java.net.ServerSocket",
            "java.util.concurrent.Executor", "java.lang.ref.Reference");
    /**
     * Asynchronous results, each with the problem it is: the first supertype that matches wins, so
     * a type that is several (a {@code CompletableFuture} is a {@code Future}, a {@code Mono} a
     * {@code Publisher}) is said as its most specific kind. Types not on the class path match nothing.
     */
    private static final List<Map.Entry<String, Problem>> ASYNC = List.of(
            Map.entry("java.util.concurrent.CompletionStage", Problem.ASYNC),
            Map.entry("reactor.core.publisher.Mono", Problem.ASYNC),
            Map.entry("reactor.core.publisher.Flux", Problem.FLUX),
            Map.entry("org.reactivestreams.Publisher", Problem.PUBLISHER),
            Map.entry("java.util.concurrent.Flow.Publisher", Problem.PUBLISHER),
            Map.entry("java.util.concurrent.Future", Problem.FUTURE));

    /** The last parameter's type of a Kotlin suspend function, as javac sees one. */
    private static final String CONTINUATION = "kotlin.coroutines.Continuation";

    /** What is wrong with a type. */
    enum Problem {
        /** It is data. */
        NONE,
        /**
         * A single value that arrives later in a type the agent cannot return in its place (a
         * subtype of {@code CompletionStage} or {@code Mono}, or one nested in the value).
         */
        ASYNC,
        /** A Reactor {@code Flux}: any number of values. */
        FLUX,
        /** Another Reactive Streams or {@code Flow} publisher: any number of values. */
        PUBLISHER,
        /** A {@code Future} that is no {@code CompletionStage}: its value is known only by blocking on it. */
        FUTURE,
        /** Not data at all. */
        NOT_DATA
    }

    /**
     * Key part types with one documented text form on every JVM; the runtime's {@code KeyParts}
     * renders each (and a test renders every one through a generated binding).
     */
    private static final Set<String> STABLE_KEY_TEXT = Set.of("java.lang.String", "java.lang.Character",
            "java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.lang.Boolean",
            "java.math.BigInteger", "java.math.BigDecimal", "java.util.UUID", "java.time.Instant",
            "java.time.LocalDate", "java.time.LocalDateTime", "java.time.LocalTime", "java.time.OffsetDateTime",
            "java.time.OffsetTime", "java.time.YearMonth", "java.time.Year", "java.time.MonthDay",
            "java.time.Duration", "java.time.Period");

    private final Types types;
    private final Elements elements;

    TypeChecks(ProcessingEnvironment env) {
        this.types = env.getTypeUtils();
        this.elements = env.getElementUtils();
    }

    Problem check(TypeMirror type) {
        switch (type.getKind()) {
            case BOOLEAN, BYTE, SHORT, INT, LONG, CHAR, FLOAT, DOUBLE, VOID:
                return Problem.NONE;
            case ARRAY:
                return check(((ArrayType) type).getComponentType());
            case TYPEVAR:
                return Problem.NOT_DATA;
            case WILDCARD: {
                TypeMirror bound = ((WildcardType) type).getExtendsBound();
                return bound == null ? Problem.NOT_DATA : check(bound);
            }
            case DECLARED:
                break;
            default:
                return Problem.NOT_DATA;
        }
        DeclaredType declared = (DeclaredType) type;
        Problem own = ownProblem(declared);
        if (own != Problem.NONE) {
            return own;
        }
        for (TypeMirror argument : declared.getTypeArguments()) {
            Problem p = check(argument);
            if (p != Problem.NONE) {
                return p;
            }
        }
        return Problem.NONE;
    }

    /** What is wrong with the declared type itself, not looking at its type arguments. */
    Problem ownProblem(DeclaredType declared) {
        if (((TypeElement) declared.asElement()).getQualifiedName().contentEquals("java.lang.Object")) {
            return Problem.NOT_DATA;
        }
        for (Map.Entry<String, Problem> async : ASYNC) {
            if (isSubtype(declared, async.getKey())) {
                return async.getValue();
            }
        }
        if (isConsumable(declared)) {
            return Problem.NOT_DATA;
        }
        for (String notData : NOT_DATA) {
            if (isSubtype(declared, notData)) {
                return Problem.NOT_DATA;
            }
        }
        return Problem.NONE;
    }

    /**
     * Whether {@code method} is a Kotlin {@code suspend} function: compiled, its last parameter is a
     * {@code kotlin.coroutines.Continuation} (and it returns {@code Object}).
     */
    boolean isSuspendFunction(ExecutableElement method) {
        List<? extends VariableElement> parameters = method.getParameters();
        return !parameters.isEmpty() && isSubtype(parameters.get(parameters.size() - 1).asType(), CONTINUATION);
    }

    /**
     * The asynchronous return types the agent wraps, by qualified name: the tool's stage or Mono
     * is the one the runtime returns ({@code AsyncToolCalls}, {@code MonoToolCalls}), so a subtype
     * of them (a custom future) could not be returned in its place.
     */
    private static final Set<String> WRAPPED_ASYNC = Set.of("java.util.concurrent.CompletionStage",
            "java.util.concurrent.CompletableFuture", "reactor.core.publisher.Mono");

    /**
     * The value type {@code T} of a {@code CompletionStage<T>}, {@code CompletableFuture<T>} or
     * {@code Mono<T>} (its upper bound for {@code ? extends T}, {@code Object} for {@code ?} or a raw
     * type, which the result check then refuses), or null when {@code type} is none of the three.
     */
    TypeMirror asyncValueType(TypeMirror type) {
        if (!(type instanceof DeclaredType declared)
                || !WRAPPED_ASYNC.contains(((TypeElement) declared.asElement()).getQualifiedName().toString())) {
            return null;
        }
        if (declared.getTypeArguments().size() != 1) {
            return elements.getTypeElement("java.lang.Object").asType();
        }
        TypeMirror value = declared.getTypeArguments().get(0);
        if (value instanceof WildcardType wildcard) {
            return wildcard.getExtendsBound() != null ? wildcard.getExtendsBound()
                    : elements.getTypeElement("java.lang.Object").asType();
        }
        return value;
    }

    /**
     * Whether values of the type are used up when they are read (an iterator, a stream, an input):
     * a subtype of one of {@link OnePassTypes#ALL}, the list the runtime refuses values by.
     */
    boolean isConsumable(TypeMirror type) {
        return OnePassTypes.ALL.stream().anyMatch(consumable -> isSubtype(type, consumable.className()));
    }

    /**
     * Why a key placeholder's value of this type has no stable text form, with the fix, or null
     * when it has one: a type listed in {@code KeyParts}, any {@code CharSequence} or an enum.
     */
    String keyPartProblem(TypeMirror type, String placeholder) {
        switch (type.getKind()) {
            case BOOLEAN, BYTE, SHORT, INT, LONG, CHAR:
                return null;
            case FLOAT, DOUBLE:
                return FLOATING_POINT;
            case ARRAY:
                return "an array: its text is its identity, a new key on every call; key by an id instead";
            case DECLARED:
                break;
            default:
                return "whose value's text is decided only at run time; " + accessorHint(placeholder);
        }
        TypeElement element = (TypeElement) ((DeclaredType) type).asElement();
        String name = element.getQualifiedName().toString();
        if (STABLE_KEY_TEXT.contains(name) || element.getKind() == ElementKind.ENUM
                || isSubtype(type, "java.lang.CharSequence")) {
            return null;
        }
        if (name.equals("java.lang.Double") || name.equals("java.lang.Float")) {
            return FLOATING_POINT;
        }
        if (name.equals("java.time.ZonedDateTime")) {
            return "whose text depends on the JVM's time-zone rules; pass an Instant or"
                    + " an OffsetDateTime";
        }
        if (isSubtype(type, "java.lang.Iterable") || isSubtype(type, "java.util.Map")) {
            return "a collection: its text follows its iteration order, which may differ between JVMs; key by an id"
                    + " instead";
        }
        return "which has no documented stable text form (only its toString()); " + accessorHint(placeholder);
    }

    private static final String FLOATING_POINT = "a floating-point number: its text differs between JDK versions and"
            + " a binary fraction is not the decimal it looks like; key by an integral amount (cents) or a BigDecimal";

    private static String accessorHint(String placeholder) {
        return "name a stable part of it with an accessor, such as {" + placeholder + ".id}";
    }

    /**
     * Whether {@code type} or a type inside it is not defined (an error type): in a round before
     * the last, a type that another processor has not generated yet.
     */
    boolean mentionsUndefined(TypeMirror type) {
        if (type.getKind() == TypeKind.ERROR) {
            return true;
        }
        if (type instanceof ArrayType array) {
            return mentionsUndefined(array.getComponentType());
        }
        if (type instanceof WildcardType wildcard) {
            return (wildcard.getExtendsBound() != null && mentionsUndefined(wildcard.getExtendsBound()))
                    || (wildcard.getSuperBound() != null && mentionsUndefined(wildcard.getSuperBound()));
        }
        if (type instanceof DeclaredType declared) {
            return declared.getTypeArguments().stream().anyMatch(this::mentionsUndefined);
        }
        return false;
    }

    /** Whether {@code type} is a type variable somewhere inside (so its concrete type is unknown). */
    boolean mentionsTypeVariable(TypeMirror type) {
        if (type instanceof TypeVariable) {
            return true;
        }
        if (type instanceof ArrayType array) {
            return mentionsTypeVariable(array.getComponentType());
        }
        if (type instanceof WildcardType wildcard) {
            return wildcard.getExtendsBound() != null && mentionsTypeVariable(wildcard.getExtendsBound());
        }
        if (type instanceof DeclaredType declared) {
            return declared.getTypeArguments().stream().anyMatch(this::mentionsTypeVariable);
        }
        return false;
    }

    boolean isSubtype(TypeMirror type, String supertype) {
        TypeElement element = elements.getTypeElement(supertype);
        return element != null && types.isSubtype(types.erasure(type), types.erasure(element.asType()));
    }

    /** The boxed form of a primitive, or the type itself. */
    TypeMirror boxed(TypeMirror type) {
        return type.getKind().isPrimitive() ? types.boxedClass(types.getPrimitiveType(type.getKind())).asType() : type;
    }

    /** The JVM descriptor of a type's erasure, as Byte Buddy's {@code #d} prints it. */
    String descriptor(TypeMirror type) {
        return switch (type.getKind()) {
            case BOOLEAN -> "Z";
            case BYTE -> "B";
            case CHAR -> "C";
            case SHORT -> "S";
            case INT -> "I";
            case LONG -> "J";
            case FLOAT -> "F";
            case DOUBLE -> "D";
            case VOID -> "V";
            case ARRAY -> "[" + descriptor(((ArrayType) type).getComponentType());
            case DECLARED -> "L" + elements.getBinaryName((TypeElement) ((DeclaredType) type).asElement()).toString()
                    .replace('.', '/') + ";";
            default -> {
                TypeMirror erased = types.erasure(type);
                if (erased.getKind() == type.getKind()) {
                    throw new IllegalArgumentException("no descriptor for " + type + " (" + type.getKind() + ")");
                }
                yield descriptor(erased);
            }
        };
    }

    /** The declared type of {@code type}, or of a type variable's upper bound; null for any other type. */
    static DeclaredType declared(TypeMirror type) {
        if (type instanceof TypeVariable variable) {
            return declared(variable.getUpperBound());
        }
        return type instanceof DeclaredType d ? d : null;
    }
}
