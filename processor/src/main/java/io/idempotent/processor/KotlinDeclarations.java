package io.idempotent.processor;

import java.util.List;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Types;

/**
 * How kotlinc shows Kotlin declarations to javac (in kapt's stubs, and in class files), where it
 * differs from what the Kotlin source says: a companion member marked {@code @JvmStatic} appears
 * twice (the member, and a static bridge in the outer class that calls it, both annotated), and an
 * {@code internal} member's JVM name ends in {@code $} and the module's name.
 */
final class KotlinDeclarations {

    /** Kotlin's annotation on every class kotlinc writes, kept on kapt's stubs. */
    static final String METADATA = "kotlin.Metadata";
    private static final String JVM_STATIC = "kotlin.jvm.JvmStatic";

    private final Types types;

    KotlinDeclarations(ProcessingEnvironment env) {
        this.types = env.getTypeUtils();
    }

    /** Whether the type was written in Kotlin. */
    static boolean isKotlin(Element type) {
        return type instanceof TypeElement && hasAnnotation(type, METADATA);
    }

    /**
     * Whether {@code method} is the static bridge that {@code @JvmStatic} adds to a class for a
     * member of its companion object: a static method of a Kotlin class, marked {@code @JvmStatic},
     * with an instance method of the same name and parameter types in the class of one of the
     * class's static fields (the companion) nested in it. The bridge only calls the member, and
     * Kotlin callers call the member directly, so the member is the tool: one binding, one wrapped
     * method (the agent skips the bridge by the same shape, {@code ToolMethods}).
     */
    boolean isCompanionBridge(ExecutableElement method) {
        Element owner = method.getEnclosingElement();
        if (!method.getModifiers().contains(Modifier.STATIC) || !isKotlin(owner) || !hasAnnotation(method, JVM_STATIC)) {
            return false;
        }
        for (VariableElement field : ElementFilter.fieldsIn(owner.getEnclosedElements())) {
            if (field.getModifiers().contains(Modifier.STATIC) && field.asType() instanceof DeclaredType companionType
                    && companionType.asElement().getEnclosingElement().equals(owner)
                    && companionType.asElement().getKind() == ElementKind.CLASS
                    && declaresInstanceTwin((TypeElement) companionType.asElement(), method)) {
                return true;
            }
        }
        return false;
    }

    private boolean declaresInstanceTwin(TypeElement companion, ExecutableElement bridge) {
        for (ExecutableElement m : ElementFilter.methodsIn(companion.getEnclosedElements())) {
            if (!m.getModifiers().contains(Modifier.STATIC) && m.getSimpleName().equals(bridge.getSimpleName())
                    && sameErasedParameters(m, bridge)
                    && m.getAnnotation(io.idempotent.annotations.IdempotentTool.class) != null) {
                return true;
            }
        }
        return false;
    }

    private boolean sameErasedParameters(ExecutableElement a, ExecutableElement b) {
        List<? extends VariableElement> pa = a.getParameters();
        List<? extends VariableElement> pb = b.getParameters();
        if (pa.size() != pb.size()) {
            return false;
        }
        for (int i = 0; i < pa.size(); i++) {
            if (!types.isSameType(types.erasure(pa.get(i).asType()), types.erasure(pb.get(i).asType()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The method's name as written in Kotlin: an {@code internal} member of a Kotlin class is
     * compiled as {@code name$module} (the module being the Maven artifact or Gradle source set),
     * so the name stored for the tool would change with the module's name; the suffix is dropped.
     * A Java method's name is its own.
     */
    static String sourceName(ExecutableElement method) {
        String name = method.getSimpleName().toString();
        int dollar = name.lastIndexOf('$');
        return dollar > 0 && isKotlin(method.getEnclosingElement()) ? name.substring(0, dollar) : name;
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
