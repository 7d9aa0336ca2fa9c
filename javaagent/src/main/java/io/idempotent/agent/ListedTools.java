package io.idempotent.agent;

import io.idempotent.build.weaving.ToolMethods;
import io.idempotent.policy.internal.ClassPathTables;
import io.idempotent.policy.internal.ListedTool;
import io.idempotent.policy.internal.PerLoader;
import io.idempotent.policy.internal.ReleaseGateTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.description.type.TypeDescription;

/**
 * The tools that the release-gate tables ({@code META-INF/idempotent/tools.json}) visible to one
 * class loader list, by the canonical name of their class. The agent wraps these methods by the
 * table, not only by their annotation: without idempotent-annotations at run time the annotation
 * cannot be resolved, and a method found only by it would run unwrapped.
 *
 * <p>The tables are read by {@link ClassPathTables}, the runtime's reader too; the agent calls its
 * own relocated copy of it, because the runtime's may not be visible from the agent jar's class
 * path (the application brings it, maybe inside a Spring Boot jar). This class keeps its own index
 * by class per loader: the filter asks it for every class that loads.
 */
final class ListedTools {

    private static final ListedTools NONE = new ListedTools(List.of());

    /** Read once per class loader; a loader that is collected takes its entry with it. */
    private static final PerLoader<ListedTools> BY_LOADER = new PerLoader<>(ListedTools::read);

    private final List<ListedTool> all;
    private final Map<String, List<ListedTool>> byClass = new LinkedHashMap<>();

    private ListedTools(List<ListedTool> all) {
        this.all = List.copyOf(all);
        for (ListedTool tool : all) {
            byClass.computeIfAbsent(tool.className(), c -> new ArrayList<>()).add(tool);
        }
    }

    /** The tools listed by every table {@code loader} sees (the system class loader's for {@code null}). */
    static ListedTools of(ClassLoader loader) {
        return BY_LOADER.get(loader);
    }

    /** The tools {@code tools} (read from the tables in the application's packaging), each once. */
    static ListedTools of(List<ListedTool> tools) {
        return tools.isEmpty() ? NONE : new ListedTools(tools);
    }

    /** What the tables in the application's packaging list, read at start ({@link Packaging}). */
    private static volatile ListedTools inPackaging = NONE;

    /** Sets the tools the tables in the application's packaging list, before the transformation is installed. */
    static void packaging(List<ListedTool> tools) {
        inPackaging = of(tools);
    }

    /**
     * The tools the tables {@code loader} sees list for {@code type}; when it sees none for it (a
     * loader that shows no resources), those the tables in the application's packaging list, so
     * that a listed class never loads unwrapped for want of its loader showing the table.
     */
    static List<ListedTool> forType(TypeDescription type, ClassLoader loader) {
        String name = ToolMethods.canonicalName(type);
        List<ListedTool> own = of(loader).of(name);
        return own.isEmpty() ? inPackaging.of(name) : own;
    }

    /**
     * Whether the tables {@code loader} sees, or those in the application's packaging, list tools
     * of the class of canonical name {@code canonicalName} (the rule {@link #forType} applies).
     */
    static boolean listed(String canonicalName, ClassLoader loader) {
        return !of(loader).of(canonicalName).isEmpty() || !inPackaging.of(canonicalName).isEmpty();
    }

    /** Every listed tool, table after table. */
    List<ListedTool> all() {
        return all;
    }

    /** The tools listed for the class of canonical name {@code className}, none for {@code null}. */
    List<ListedTool> of(String className) {
        return className == null ? List.of() : byClass.getOrDefault(className, List.of());
    }

    /** The canonical names of the listed classes, in the tables' order. */
    List<String> classNames() {
        return List.copyOf(byClass.keySet());
    }

    private static ListedTools read(ClassLoader loader) {
        ClassPathTables tables;
        try {
            tables = ClassPathTables.of(loader);
        } catch (RuntimeException e) {
            return unlisted(loader, e);
        }
        if (tables.unlisted() != null) {
            return unlisted(loader, tables.unlisted());
        }
        List<ListedTool> tools = new ArrayList<>();
        for (ClassPathTables.Table table : tables.tables()) {
            if (table.failure() == null) {
                tools.addAll(table.tools());
            } else {
                AgentLog.error("cannot read the release-gate table " + table.location() + ": "
                        + table.failure().getMessage()
                        + ". The tools it lists are wrapped only if their annotation can be resolved");
            }
        }
        return tools.isEmpty() ? NONE : new ListedTools(tools);
    }

    /** A loader of the application's own making may refuse the question: its tools are found by annotation. */
    private static ListedTools unlisted(ClassLoader loader, Exception e) {
        AgentLog.error("cannot read " + ReleaseGateTable.RESOURCE + " through " + loader + ": " + e
                + ". The tools it lists are wrapped only if their annotation can be resolved");
        return NONE;
    }
}
