package io.idempotent.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.RecordComponentElement;
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
 * How Jackson, with its defaults, sees a type that the user wrote: its properties (a record's
 * components; otherwise public getters and public fields, less those marked {@code @JsonIgnore}),
 * whether it carries type information or a creator, and whether it is a function rather than
 * data. Jackson's annotations are recognised by name, so the processor does not depend on Jackson.
 */
final class JsonShape {

    private static final String JACKSON = "com.fasterxml.jackson.annotation.";
    private static final String JACKSON_DATABIND = "com.fasterxml.jackson.databind.annotation.";

    /** One property as serialised: its JSON name and its type as a member of the owning type. */
    record Property(String name, TypeMirror type) {
    }

    /**
     * Interfaces with one abstract method that describe data rather than a computation: an
     * {@code Iterable} is hashed as its elements and a {@code Comparable} is a capability of a value.
     */
    private static final List<String> SINGLE_METHOD_DATA = List.of("java.lang.Iterable", "java.lang.Comparable");

    private final Types types;
    private final Elements elements;

    JsonShape(ProcessingEnvironment env) {
        this.types = env.getTypeUtils();
        this.elements = env.getElementUtils();
    }

    /**
     * Whether the type belongs to the JDK or to Jackson itself ({@code JsonNode}), whose shape is
     * Jackson's own business: only its type arguments are looked into, never its getters.
     */
    static boolean isWellKnown(TypeElement element) {
        String name = element.getQualifiedName().toString();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("com.fasterxml.jackson.");
    }

    /** The properties Jackson would write for a value of {@code type}, in declaration order. */
    List<Property> properties(DeclaredType type) {
        TypeElement element = (TypeElement) type.asElement();
        Map<String, Property> found = new LinkedHashMap<>();
        if (element.getKind() == ElementKind.RECORD) {
            for (RecordComponentElement component : element.getRecordComponents()) {
                ExecutableElement accessor = component.getAccessor();
                if (!jackson(component, "JsonIgnore") && (accessor == null || !jackson(accessor, "JsonIgnore"))) {
                    found.put(component.getSimpleName().toString(), new Property(component.getSimpleName().toString(),
                            accessor == null ? component.asType() : returnType(type, accessor)));
                }
            }
            return new ArrayList<>(found.values());
        }
        for (ExecutableElement m : ElementFilter.methodsIn(elements.getAllMembers(element))) {
            String name = getterProperty(m);
            if (name != null && !jackson(m, "JsonIgnore")) {
                found.putIfAbsent(name, new Property(name, returnType(type, m)));
            }
        }
        for (VariableElement f : ElementFilter.fieldsIn(elements.getAllMembers(element))) {
            Set<Modifier> modifiers = f.getModifiers();
            if (modifiers.contains(Modifier.PUBLIC) && !modifiers.contains(Modifier.STATIC)
                    && !modifiers.contains(Modifier.TRANSIENT)
                    && !jackson(f, "JsonIgnore")) {
                found.putIfAbsent(f.getSimpleName().toString(), new Property(f.getSimpleName().toString(),
                        types.asMemberOf(type, f)));
            }
        }
        return new ArrayList<>(found.values());
    }

    /** Whether the type names the subtype to create when it is read back (Jackson's polymorphic handling). */
    boolean hasTypeInformation(TypeElement element) {
        return jackson(element, "JsonTypeInfo") || jackson(element, "JsonSubTypes")
                || hasAnnotation(element, JACKSON_DATABIND + "JsonDeserialize");
    }

    /** Why Jackson cannot create a class from its stored JSON: the reason and the values its text names. */
    record CreatorProblem(ResultTypeCheck.Reason reason, List<String> args) {
    }

    /**
     * Why Jackson could not create the class when it reads a value back, or null when it can, with
     * any mapper the runtime may be given: a no-argument constructor (Jackson may call a non-public
     * one), a {@code @JsonCreator} constructor or factory whose parameters are named by
     * {@code @JsonProperty("name")} (or that takes the whole value, {@code mode = DELEGATING}), a
     * {@code @ConstructorProperties} constructor, a builder ({@code @JsonDeserialize(builder = ...)})
     * with its build method, a deserializer of its own ({@code @JsonDeserialize(using = ...)}), or a
     * Kotlin class when jackson-module-kotlin is on the class path (the runtime's default mapper
     * registers every module it finds; its names come from Kotlin's metadata).
     *
     * <p>A creator's parameter names from {@code javac -parameters} are not enough: Jackson reads
     * them only through its parameter-names module, and whether the application's mapper has it and
     * whether the flag was set are both invisible to the build. So the gate asks for the names in
     * the source, where every mapper sees them.
     */
    CreatorProblem creatorProblem(TypeElement element) {
        AnnotationMirror deserialize = annotation(element, JACKSON_DATABIND + "JsonDeserialize");
        if (deserialize != null) {
            TypeElement builder = classValue(deserialize, "builder");
            if (builder != null) {
                return builderProblem(element, builder);
            }
            if (classValue(deserialize, "using") != null || classValue(deserialize, "as") != null) {
                return null; // the application's own way to read it
            }
        }
        boolean kotlin = KotlinDeclarations.isKotlin(element);
        boolean kotlinNames = kotlin && elements.getTypeElement(KOTLIN_MODULE) != null;
        boolean annotatedCreator = false;
        List<ExecutableElement> candidates = new ArrayList<>(ElementFilter.constructorsIn(element.getEnclosedElements()));
        for (ExecutableElement m : ElementFilter.methodsIn(element.getEnclosedElements())) {
            if (m.getModifiers().contains(Modifier.STATIC)) {
                candidates.add(m);
            }
        }
        for (ExecutableElement creator : candidates) {
            AnnotationMirror jsonCreator = annotation(creator, JACKSON + "JsonCreator");
            String mode = jsonCreator == null ? null : enumValue(jsonCreator, "mode");
            if (jsonCreator == null || "DISABLED".equals(mode)) {
                continue;
            }
            annotatedCreator = true;
            if (!"DELEGATING".equals(mode) && !kotlinNames && !everyParameterNamed(creator)) {
                return new CreatorProblem(ResultTypeCheck.Reason.UNNAMED_CREATOR_PARAMETERS, List.of());
            }
        }
        if (annotatedCreator) {
            return null;
        }
        for (ExecutableElement c : ElementFilter.constructorsIn(element.getEnclosedElements())) {
            if (c.getParameters().isEmpty() || hasAnnotation(c, "java.beans.ConstructorProperties")) {
                return null;
            }
        }
        if (kotlin) {
            return kotlinNames ? null : new CreatorProblem(ResultTypeCheck.Reason.KOTLIN_WITHOUT_MODULE, List.of());
        }
        return new CreatorProblem(ResultTypeCheck.Reason.NO_CREATOR, List.of());
    }

    /** jackson-module-kotlin's module, which reads a Kotlin constructor's parameter names from the metadata. */
    static final String KOTLIN_MODULE = "com.fasterxml.jackson.module.kotlin.KotlinModule";

    /**
     * Whether each parameter of a creator carries its JSON name in the source: {@code @JsonProperty}
     * with a value, or {@code @JacksonInject} (a value the mapper supplies).
     */
    private static boolean everyParameterNamed(ExecutableElement creator) {
        for (VariableElement parameter : creator.getParameters()) {
            AnnotationMirror property = annotation(parameter, JACKSON + "JsonProperty");
            String name = property == null ? null : stringValue(property, "value");
            if ((name == null || name.isEmpty()) && !jackson(parameter, "JacksonInject")) {
                return false;
            }
        }
        return true;
    }

    /**
     * Why Jackson could not build the class through {@code builder}: the builder itself must be
     * creatable, and have the build method ({@code build}, or {@code @JsonPOJOBuilder}'s
     * {@code buildMethodName}) without parameters.
     */
    private CreatorProblem builderProblem(TypeElement built, TypeElement builder) {
        CreatorProblem own = creatorProblem(builder);
        if (own != null) {
            return own;
        }
        AnnotationMirror pojoBuilder = annotation(builder, JACKSON_DATABIND + "JsonPOJOBuilder");
        String buildMethod = pojoBuilder == null ? null : stringValue(pojoBuilder, "buildMethodName");
        String name = buildMethod == null ? "build" : buildMethod;
        for (ExecutableElement m : ElementFilter.methodsIn(elements.getAllMembers(builder))) {
            if (m.getSimpleName().contentEquals(name) && m.getParameters().isEmpty()
                    && !m.getModifiers().contains(Modifier.STATIC)
                    && types.isAssignable(types.erasure(m.getReturnType()), types.erasure(built.asType()))) {
                return null;
            }
        }
        return new CreatorProblem(ResultTypeCheck.Reason.NO_BUILD_METHOD,
                List.of(builder.getQualifiedName().toString(), name, built.getSimpleName().toString()));
    }

    /**
     * Whether values of the type are functions, not data: an interface marked
     * {@code @FunctionalInterface} or with exactly one abstract method (a lambda fits it). Jackson
     * writes a lambda as {@code {}}, so a changed one would hash the same.
     */
    boolean isFunction(TypeElement element) {
        if (element.getKind() != ElementKind.INTERFACE
                || SINGLE_METHOD_DATA.contains(element.getQualifiedName().toString())) {
            return false;
        }
        if (hasAnnotation(element, "java.lang.FunctionalInterface")) {
            return true;
        }
        int abstractMethods = 0;
        for (ExecutableElement m : ElementFilter.methodsIn(elements.getAllMembers(element))) {
            if (m.getModifiers().contains(Modifier.ABSTRACT) && !isPublicObjectMethod(m)) {
                abstractMethods++;
            }
        }
        return abstractMethods == 1;
    }

    /** equals, hashCode and toString, which an interface may redeclare without adding a method. */
    private static boolean isPublicObjectMethod(ExecutableElement m) {
        String name = m.getSimpleName().toString();
        int arity = m.getParameters().size();
        return (name.equals("equals") && arity == 1) || ((name.equals("hashCode") || name.equals("toString"))
                && arity == 0);
    }

    /** The property a public instance getter reads ({@code getX}, or {@code isX} for a boolean), or null. */
    private static String getterProperty(ExecutableElement m) {
        Set<Modifier> modifiers = m.getModifiers();
        if (!modifiers.contains(Modifier.PUBLIC) || modifiers.contains(Modifier.STATIC) || !m.getParameters().isEmpty()
                || m.getReturnType().getKind() == TypeKind.VOID
                || ((TypeElement) m.getEnclosingElement()).getQualifiedName().contentEquals("java.lang.Object")) {
            return null;
        }
        String name = m.getSimpleName().toString();
        if (name.startsWith("get") && name.length() > 3 && !name.equals("getClass")) {
            return Character.toLowerCase(name.charAt(3)) + name.substring(4);
        }
        if (name.startsWith("is") && name.length() > 2 && m.getReturnType().getKind() == TypeKind.BOOLEAN) {
            return Character.toLowerCase(name.charAt(2)) + name.substring(3);
        }
        return null;
    }

    private TypeMirror returnType(DeclaredType owner, ExecutableElement method) {
        return ((ExecutableType) types.asMemberOf(owner, method)).getReturnType();
    }

    /** A Class-valued attribute, or null when it is absent or Jackson's "none" ({@code Void}, or a {@code None} marker). */
    private static TypeElement classValue(AnnotationMirror mirror, String attribute) {
        Object value = explicitValue(mirror, attribute);
        if (value instanceof DeclaredType type) {
            TypeElement element = (TypeElement) type.asElement();
            String name = element.getQualifiedName().toString();
            return name.equals("java.lang.Void") || element.getSimpleName().contentEquals("None") ? null : element;
        }
        return null;
    }

    private static String enumValue(AnnotationMirror mirror, String attribute) {
        Object value = explicitValue(mirror, attribute);
        return value instanceof VariableElement constant ? constant.getSimpleName().toString() : null;
    }

    private static String stringValue(AnnotationMirror mirror, String attribute) {
        Object value = explicitValue(mirror, attribute);
        return value instanceof String text ? text : null;
    }

    /** An attribute given in the source (defaults are Jackson's "not set" values, so absent is enough). */
    private static Object explicitValue(AnnotationMirror mirror, String attribute) {
        for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e : mirror.getElementValues().entrySet()) {
            if (e.getKey().getSimpleName().contentEquals(attribute)) {
                return e.getValue().getValue();
            }
        }
        return null;
    }

    private static AnnotationMirror annotation(Element element, String qualifiedName) {
        for (AnnotationMirror m : element.getAnnotationMirrors()) {
            if (((TypeElement) m.getAnnotationType().asElement()).getQualifiedName().contentEquals(qualifiedName)) {
                return m;
            }
        }
        return null;
    }

    private static boolean jackson(Element element, String simpleName) {
        return hasAnnotation(element, JACKSON + simpleName);
    }

    private static boolean hasAnnotation(Element element, String qualifiedName) {
        return annotation(element, qualifiedName) != null;
    }
}
