package io.idempotent.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
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

    /**
     * Whether Jackson can create the class when it reads a value back: a no-argument constructor
     * (Jackson may call a non-public one), a {@code @JsonCreator} constructor or factory, a
     * {@code @ConstructorProperties} constructor, or a {@code @JsonDeserialize} of its own.
     */
    boolean hasCreator(TypeElement element) {
        if (hasAnnotation(element, JACKSON_DATABIND + "JsonDeserialize")) {
            return true;
        }
        for (ExecutableElement c : ElementFilter.constructorsIn(element.getEnclosedElements())) {
            if (c.getParameters().isEmpty() || jackson(c, "JsonCreator")
                    || hasAnnotation(c, "java.beans.ConstructorProperties")) {
                return true;
            }
        }
        for (ExecutableElement m : ElementFilter.methodsIn(element.getEnclosedElements())) {
            if (m.getModifiers().contains(Modifier.STATIC) && jackson(m, "JsonCreator")) {
                return true;
            }
        }
        return false;
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

    private static boolean jackson(Element element, String simpleName) {
        return hasAnnotation(element, JACKSON + simpleName);
    }

    private static boolean hasAnnotation(Element element, String qualifiedName) {
        for (AnnotationMirror m : element.getAnnotationMirrors()) {
            if (((TypeElement) m.getAnnotationType().asElement()).getQualifiedName().contentEquals(qualifiedName)) {
                return true;
            }
        }
        return false;
    }
}
