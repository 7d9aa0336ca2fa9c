package io.idempotent.runtime.internal;

import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.ReleaseGateTables.Declaration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * One class per tool name and store. The operation record is keyed by (tool, key) in its store, so
 * two classes whose tools share a name on one store share every record: the second tool would be
 * answered with the first one's stored results and its body would never run. A runtime therefore
 * refuses a tool whose name and store another class holds, whether the class path's release-gate
 * tables show it (two jars compiled apart: both classes' calls are refused, before either ran) or
 * an earlier call through this runtime did (bindings without a table: the class called first keeps
 * the tool, every call of the other is refused). Calls with a policy of their own
 * ({@code IdempotentRuntime.call(ToolPolicy, ...)}) have no class and are not checked.
 */
final class ToolOwners {

    /** The class a binding belongs to: its {@link ToolBindings#toolClass()}, else its nest host. */
    private static final ClassValue<Class<?>> TOOL_CLASS = new ClassValue<>() {
        @Override
        protected Class<?> computeValue(Class<?> bindingClass) {
            Class<?> host = bindingClass.getNestHost();
            if (ToolBindings.class.isAssignableFrom(host)) {
                try {
                    return ((ToolBindings) host.getDeclaredConstructor().newInstance()).toolClass();
                } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                    return host;
                }
            }
            return host;
        }
    };

    /** By store, then tool name: the class name that holds it in this runtime. */
    private final Map<String, Map<String, String>> owners = new ConcurrentHashMap<>();

    /** The class whose tool {@code binding} is (for calls that bring a binding but no class). */
    static Class<?> toolClassOf(ToolBinding binding) {
        return TOOL_CLASS.get(binding.getClass());
    }

    /**
     * Refuses the call when a class other than {@code toolClass} declares the tool's name on its
     * store.
     *
     * @throws StoreConfigurationException naming both classes; nothing was claimed
     */
    void requireSole(ToolPolicy policy, Class<?> toolClass) {
        String tool = policy.name();
        Map<String, String> ofStore = owners.computeIfAbsent(policy.store(), s -> new ConcurrentHashMap<>());
        String name = className(toolClass);
        String owner = ofStore.get(tool);
        if (owner == null) {
            checkTables(policy, toolClass, name);
            owner = ofStore.putIfAbsent(tool, name);
            if (owner == null) {
                return;
            }
        }
        if (!owner.equals(name)) {
            throw clash(policy, Set.of(owner, name).stream().sorted().toList(), "both were called through this"
                    + " runtime");
        }
    }

    private static void checkTables(ToolPolicy policy, Class<?> toolClass, String name) {
        ReleaseGateTables tables = ReleaseGateTables.of(toolClass.getClassLoader());
        if (tables.unreadable() != null) {
            throw new StoreConfigurationException(policy.name(), null, tables.unreadable() + ", so the runtime cannot"
                    + " tell whether another class declares this tool on store \"" + policy.store() + "\"; the call"
                    + " is refused and the body did not run", "Rebuild that jar with the idempotent-processor, or"
                    + " remove it from the class path", null);
        }
        List<Declaration> declared = tables.declarations(policy.store(), policy.name());
        Set<String> classes = new LinkedHashSet<>();
        classes.add(name);
        declared.forEach(d -> classes.add(d.className()));
        if (classes.size() > 1) {
            throw clash(policy, List.copyOf(classes), "the class path's release-gate tables say so ("
                    + declared.stream().map(d -> d.className() + " in " + d.table()).collect(Collectors.joining(", "))
                    + ")");
        }
    }

    private static StoreConfigurationException clash(ToolPolicy policy, List<String> classes, String source) {
        return new StoreConfigurationException(policy.name(), null, "the tool name \"" + policy.name() + "\" on store \""
                + policy.store() + "\" is declared by " + classes.size() + " classes, " + String.join(" and ", classes)
                + ": " + source + ". They would share one operation record per key, so one tool would be answered"
                + " with the other's stored results. Every call of this tool is refused and the body did not run",
                "Give one of them another name (@IdempotentTool(name = ...)) or another store, or remove the jar"
                        + " that should not be on the class path", null);
    }

    /** The name a release-gate table gives a class: its canonical name where it has one. */
    private static String className(Class<?> type) {
        String canonical = type.getCanonicalName();
        return canonical != null ? canonical : type.getName();
    }
}
