package io.idempotent.build.weaving;

import static net.bytebuddy.matcher.ElementMatchers.isAnnotatedWith;
import static net.bytebuddy.matcher.ElementMatchers.named;

import io.idempotent.policy.internal.ListedTool;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The tool methods of one class: every method the release-gate table lists for it (found by name
 * and parameter types) and every method annotated {@code @IdempotentTool} whose annotation can be
 * resolved. A listed tool the class has no such method for is an error: the methods of its name
 * are refused, so a class that changed after the processor ran never runs a tool unwrapped. The
 * one rule of which methods are tools, for the agent at load time and the build plugin at build
 * time alike; each hands in the table's entries it found for the class.
 */
public final class ToolMethods {

    /** The annotation's name: matched by name, so that it need not be loadable where the matching runs. */
    public static final String ANNOTATION = "io.idempotent.annotations.IdempotentTool";

    private static final ElementMatcher<MethodDescription> ANNOTATED = isAnnotatedWith(named(ANNOTATION));

    private final Set<String> wrapped;
    private final Set<String> strays;
    private final List<ListedTool> unmatched;

    private ToolMethods(Set<String> wrapped, Set<String> strays, List<ListedTool> unmatched) {
        this.wrapped = wrapped;
        this.strays = strays;
        this.unmatched = unmatched;
    }

    /** Whether {@code type} has a tool method: {@code listed} (the table's entries for it) is not empty, or one is annotated. */
    public static boolean declaresTools(TypeDescription type, List<ListedTool> listed) {
        if (!listed.isEmpty()) {
            return true;
        }
        for (MethodDescription method : type.getDeclaredMethods()) {
            if (candidate(method) && ANNOTATED.matches(method) && !isKotlinCompanionBridge(method)) {
                return true;
            }
        }
        return false;
    }

    private static final String KOTLIN_METADATA = "kotlin.Metadata";

    /**
     * Whether {@code method} is the static bridge that Kotlin's {@code @JvmStatic} adds to a class
     * for a member of its companion object: a static method of a Kotlin class (it carries
     * {@code kotlin.Metadata}) with an annotated instance method of the same name and parameter
     * types in the class of one of its static fields, nested in it (the companion). The bridge only
     * calls the member, which Kotlin callers call directly: the member is the tool (the processor
     * binds it alone, by the same shape, in its {@code KotlinDeclarations}), so wrapping the bridge
     * too would claim twice per call. {@code @JvmStatic} itself is not kept for reflection, so the
     * shape decides.
     */
    public static boolean isKotlinCompanionBridge(MethodDescription method) {
        if (!method.isStatic()) {
            return false;
        }
        TypeDescription owner = method.getDeclaringType().asErasure();
        if (owner.getDeclaredAnnotations().stream()
                .noneMatch(a -> a.getAnnotationType().getName().equals(KOTLIN_METADATA))) {
            return false;
        }
        for (FieldDescription field : owner.getDeclaredFields()) {
            TypeDescription companion = field.getType().asErasure();
            if (!field.isStatic() || !owner.equals(companion.getDeclaringType())) {
                continue;
            }
            for (MethodDescription member : companion.getDeclaredMethods()) {
                if (!member.isStatic() && member.isMethod() && member.getName().equals(method.getName())
                        && member.getParameters().asTypeList().asErasures()
                                .equals(method.getParameters().asTypeList().asErasures())
                        && ANNOTATED.matches(member)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The tool methods of {@code type}, of which the release-gate tables list {@code listed}. */
    public static ToolMethods of(TypeDescription type, List<ListedTool> listed) {
        List<MethodDescription> methods = new ArrayList<>();
        for (MethodDescription method : type.getDeclaredMethods()) {
            if (candidate(method)) {
                methods.add(method);
            }
        }
        Set<String> wrapped = new LinkedHashSet<>();
        for (MethodDescription method : methods) {
            if (ANNOTATED.matches(method) && !isKotlinCompanionBridge(method)) {
                wrapped.add(signature(method));
            }
        }
        List<ListedTool> unmatched = new ArrayList<>();
        for (ListedTool tool : listed) {
            MethodDescription match = methods.stream().filter(m -> declares(m, tool)).findFirst().orElse(null);
            if (match == null) {
                unmatched.add(tool);
            } else {
                wrapped.add(signature(match));
            }
        }
        Set<String> strays = new LinkedHashSet<>();
        for (ListedTool tool : unmatched) {
            for (MethodDescription method : methods) {
                if (method.getName().equals(tool.methodName()) && !wrapped.contains(signature(method))) {
                    strays.add(signature(method));
                }
            }
        }
        return new ToolMethods(wrapped, strays, unmatched);
    }

    /** The methods that run through the protocol. */
    public ElementMatcher<MethodDescription> wrapped() {
        return method -> wrapped.contains(signature(method));
    }

    /** The methods named by a listed tool that has no exact match in the class: they refuse every call. */
    public ElementMatcher<MethodDescription> strays() {
        return method -> strays.contains(signature(method));
    }

    /** Every tool method: the wrapped ones and the strays. */
    public ElementMatcher<MethodDescription> all() {
        return method -> wrapped.contains(signature(method)) || strays.contains(signature(method));
    }

    /** How many methods run through the protocol. */
    public int wrappedCount() {
        return wrapped.size();
    }

    /** How many methods refuse every call (named by a listed tool without an exact match). */
    public int strayCount() {
        return strays.size();
    }

    /** The listed tools the class has no method of that name and those parameter types for. */
    public List<ListedTool> unmatched() {
        return unmatched;
    }

    private static boolean candidate(MethodDescription method) {
        return method.isMethod() && !method.isSynthetic();
    }

    private static String signature(MethodDescription method) {
        return method.getInternalName() + method.getDescriptor();
    }

    /** Whether {@code method} is the one {@code tool} names: same name, same erased parameter types. */
    private static boolean declares(MethodDescription method, ListedTool tool) {
        if (!method.getName().equals(tool.methodName())) {
            return false;
        }
        try {
            List<String> types = tool.parameterTypes();
            if (types.size() != method.getParameters().size()) {
                return false;
            }
            for (int i = 0; i < types.size(); i++) {
                if (!types.get(i).equals(sourceName(method.getParameters().get(i).getType()))) {
                    return false;
                }
            }
            return true;
        } catch (RuntimeException e) {
            // A parameter type that cannot be resolved, or an entry that cannot be read: not this method.
            return false;
        }
    }

    /** A parameter type as the release-gate table writes it once erased ({@link ListedTool#parameterTypes()}). */
    public static String sourceName(TypeDescription.Generic type) {
        if (type.getSort() == TypeDefinition.Sort.VARIABLE || type.getSort() == TypeDefinition.Sort.VARIABLE_SYMBOLIC) {
            return type.getSymbol();
        }
        if (type.getSort() == TypeDefinition.Sort.GENERIC_ARRAY) {
            return sourceName(type.getComponentType()) + "[]";
        }
        TypeDescription erasure = type.asErasure();
        if (erasure.isArray()) {
            return sourceName(erasure.getComponentType().asGenericType()) + "[]";
        }
        String canonical = erasure.getCanonicalName();
        return canonical != null ? canonical : erasure.getName();
    }

    /** The canonical name the table names the class by, {@code null} for a local or anonymous class. */
    public static String canonicalName(TypeDescription type) {
        try {
            return type.getCanonicalName();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
