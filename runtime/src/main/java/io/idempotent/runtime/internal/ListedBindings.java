package io.idempotent.runtime.internal;

import io.idempotent.policy.internal.KeyTemplate;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.binding.ToolBinding;
import java.util.List;
import java.util.Optional;

/**
 * The generated binding of a tool found by its name, for an adapter that describes the tool to a
 * remote client (MCP's listing) before any call: the release-gate tables name the class that
 * declares it, whose {@code _IdempotentTools} holds the binding. One home of what the gate
 * verified about a tool. Empty when no table names the tool, two classes do (on any stores), or
 * the class or its binding cannot be loaded: a listing then says nothing rather than guess.
 */
public final class ListedBindings {

    private ListedBindings() {
    }

    /** The binding of the tool named {@code tool} that {@code loader}'s release-gate tables list, if exactly one. */
    public static Optional<ToolBinding> byName(String tool, ClassLoader loader) {
        ReleaseGateTables tables = ReleaseGateTables.of(loader);
        String className = null;
        for (String store : tables.stores()) {
            List<ReleaseGateTables.Declaration> declarations = tables.declarations(store, tool);
            for (ReleaseGateTables.Declaration declaration : declarations) {
                if (className != null && !className.equals(declaration.className())) {
                    return Optional.empty();
                }
                className = declaration.className();
            }
        }
        if (className == null) {
            return Optional.empty();
        }
        try {
            return byName(Class.forName(className, false, loader), tool);
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
    }

    /**
     * Whether {@code policy}'s key uses the workflow's step ({@code {step}} or {@code {step.x}}):
     * then a repeat is the same operation only under the same step, not for the same arguments alone.
     */
    public static boolean keyUsesStep(io.idempotent.runtime.binding.ToolPolicy policy) {
        for (KeyTemplate.Piece piece : KeyTemplate.parse(policy.keyTemplate()).pieces()) {
            if (piece.placeholder() != null && KeyTemplate.namesStep(piece.placeholder().text())) {
                return true;
            }
        }
        return false;
    }

    /** The binding of {@code method}, if it is an {@code @IdempotentTool} method with a generated binding. */
    public static Optional<ToolBinding> of(java.lang.reflect.Method method) {
        String descriptor = method.getName() + java.lang.invoke.MethodType.methodType(method.getReturnType(),
                method.getParameterTypes()).toMethodDescriptorString();
        try {
            return BindingRegistry.all(method.getDeclaringClass()).stream()
                    .filter(b -> b.methodDescriptor().equals(descriptor)).findFirst();
        } catch (IdempotencyException | LinkageError e) {
            return Optional.empty();
        }
    }

    /** The binding of the tool named {@code tool} that {@code toolClass} declares, if any. */
    public static Optional<ToolBinding> byName(Class<?> toolClass, String tool) {
        try {
            return BindingRegistry.all(toolClass).stream().filter(b -> b.policy().name().equals(tool)).findFirst();
        } catch (IdempotencyException | LinkageError e) {
            return Optional.empty(); // a class without its binding: its calls are refused, its listing says nothing
        }
    }
}
