package io.idempotent.runtime.internal;

import io.idempotent.runtime.MissingBindingException;
import io.idempotent.policy.internal.BindingNames;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import java.util.HashMap;
import java.util.Map;

/**
 * Finds the generated binding of a tool method: loads {@code <Class>_IdempotentTools} once per
 * tool class through the class's own loader, then looks methods up by name and descriptor.
 */
public final class BindingRegistry {

    private static final ClassValue<Map<String, ToolBinding>> BINDINGS = new ClassValue<>() {
        @Override
        protected Map<String, ToolBinding> computeValue(Class<?> toolClass) {
            return load(toolClass);
        }
    };

    private BindingRegistry() {
    }

    /**
     * The binding of {@code methodDescriptor} (name + JVM descriptor) in {@code toolClass}.
     *
     * @throws MissingBindingException if the class or the method has no generated binding
     */
    public static ToolBinding find(Class<?> toolClass, String methodDescriptor) {
        Map<String, ToolBinding> bindings;
        try {
            bindings = BINDINGS.get(toolClass);
        } catch (MissingBindingException e) {
            throw e;
        }
        ToolBinding binding = bindings.get(methodDescriptor);
        if (binding == null) {
            throw new MissingBindingException(null, null, "the @IdempotentTool method " + toolClass.getName() + "."
                    + methodDescriptor + " has no binding in " + bindingClassName(toolClass)
                    + " (it has " + bindings.keySet() + "): the class changed after the processor ran. Rebuild it with"
                    + " the idempotent-processor annotation processor; the call is refused");
        }
        return binding;
    }

    /**
     * Every binding of {@code toolClass} ({@link ListedBindings}).
     *
     * @throws io.idempotent.runtime.MissingBindingException if the class has no generated binding
     */
    static java.util.Collection<ToolBinding> all(Class<?> toolClass) {
        return BINDINGS.get(toolClass).values();
    }

    /** Whether the tool's class loader sees idempotent-annotations, which every generated binding uses. */
    private static boolean annotationsVisible(Class<?> toolClass) {
        ClassLoader loader = toolClass.getClassLoader() != null ? toolClass.getClassLoader()
                : ClassLoader.getSystemClassLoader();
        return loader.getResource(BindingNames.ANNOTATIONS_CLASS_FILE) != null;
    }

    private static String bindingClassName(Class<?> toolClass) {
        return BindingNames.bindingClassName(toolClass.getName(), toolClass.getPackageName());
    }

    private static Map<String, ToolBinding> load(Class<?> toolClass) {
        refuseUnnamed(toolClass);
        WovenClasses.check(toolClass);
        String name = bindingClassName(toolClass);
        Object instance;
        try {
            Class<?> type = Class.forName(name, true, toolClass.getClassLoader());
            instance = type.getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            throw new MissingBindingException(null, null, toolClass.getName() + " has @IdempotentTool methods but no"
                    + " generated binding " + name + ": it was compiled without the idempotent-processor annotation"
                    + " processor. Add io.idempotent:idempotent-processor to the compiler's annotationProcessorPaths"
                    + " (Maven) or annotationProcessor configuration (Gradle) and rebuild; the call is refused", e);
        } catch (LinkageError e) {
            if (!annotationsVisible(toolClass)) {
                throw new MissingBindingException(null, null, "io.idempotent:idempotent-annotations is not on its class"
                        + " path at run time, so the generated binding " + name + " of " + toolClass.getName()
                        + " cannot load (it uses the annotations' Retry and EffectBoundary)", "Add"
                        + " io.idempotent:idempotent-annotations to the application's run-time dependencies (not"
                        + " provided or compileOnly); the call is refused", e);
            }
            throw new MissingBindingException(null, null, "cannot load the generated binding " + name + " of "
                    + toolClass.getName() + ": " + e + ". Rebuild with the idempotent-processor annotation processor",
                    e);
        } catch (IllegalAccessException e) {
            // A named module that does not export (or open) the tool's package: the binding is there,
            // the runtime may not create it. Every tool of the class refuses its calls, before any claim.
            Module module = toolClass.getModule();
            throw new MissingBindingException(null, null, "the runtime may not create the generated binding " + name
                    + " of " + toolClass.getName() + ": its module does not let the runtime in (" + e.getMessage()
                    + ")", "Open the package to the runtime: `opens " + toolClass.getPackageName() + ";` in"
                    + " module-info.java, or --add-opens " + module.getName() + "/" + toolClass.getPackageName()
                    + "=ALL-UNNAMED at launch when idempotent-runtime is on the class path (exporting it is enough"
                    + " for synchronous tools; asynchronous ones need it open); the call is refused", e);
        } catch (ReflectiveOperationException e) {
            throw new MissingBindingException(null, null, "cannot load the generated binding " + name + " of "
                    + toolClass.getName() + ": " + e + ". Rebuild with the idempotent-processor annotation processor",
                    e);
        }
        if (!(instance instanceof ToolBindings bindings)) {
            throw new MissingBindingException(null, null, name + " is not a ToolBindings; rebuild " + toolClass.getName()
                    + " with the idempotent-processor annotation processor of the same version as the runtime");
        }
        Map<String, ToolBinding> byDescriptor = new HashMap<>();
        for (ToolBinding binding : bindings.tools()) {
            byDescriptor.put(binding.methodDescriptor(), binding);
        }
        return Map.copyOf(byDescriptor);
    }

    /**
     * An anonymous or local class (or a class nested in one) has no binding, whatever the build:
     * a binding names its class, and the processor refuses such tools ([IdemToolClass]). Said as
     * it is, rather than as a missing processor.
     */
    private static void refuseUnnamed(Class<?> toolClass) {
        for (Class<?> c = toolClass; c != null; c = c.getEnclosingClass()) {
            if (c.isAnonymousClass() || c.isLocalClass()) {
                throw new MissingBindingException(null, null, toolClass.getName() + " has @IdempotentTool methods,"
                        + " but " + (c == toolClass ? "it" : "its enclosing class " + c.getName()) + " is "
                        + (c.isAnonymousClass() ? "an anonymous" : "a local") + " class, and anonymous and local"
                        + " classes cannot hold tools: a tool's generated binding must name its class (the"
                        + " idempotent-processor refuses them with [IdemToolClass]). The call is refused",
                        "Move the method to a named top-level or nested class", null);
            }
        }
    }
}
