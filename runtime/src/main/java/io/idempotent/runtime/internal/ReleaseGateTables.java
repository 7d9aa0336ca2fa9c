package io.idempotent.runtime.internal;

import io.idempotent.policy.internal.ClassPathTables;
import io.idempotent.policy.internal.ListedTool;
import io.idempotent.policy.internal.PerLoader;
import io.idempotent.policy.internal.ReleaseGateTable;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;

/**
 * The release-gate tables ({@value ReleaseGateTable#RESOURCE}) that one class loader sees, every
 * copy on its class path, read once per loader ({@link ClassPathTables}, shared with the readiness
 * check): which classes declare each tool name on each store. Two jars compiled apart can each declare a tool {@code refund} on the default store;
 * only these tables, read together, show it before either tool runs.
 */
final class ReleaseGateTables {

    /** Weak keys: a web application's loader that is discarded takes its tables with it. */
    private static final PerLoader<ReleaseGateTables> BY_LOADER = new PerLoader<>(ReleaseGateTables::read);

    /** One class declaring a tool, the table that says so, and whether it declares it transactional. */
    record Declaration(String className, URL table, boolean transactional) {
    }

    /** By store, then tool name: the declaring classes, one entry per class name. */
    private final Map<String, Map<String, List<Declaration>>> declarations;
    /** Why a table could not be read (its location, never its text), or null. */
    private final String unreadable;

    private ReleaseGateTables(Map<String, Map<String, List<Declaration>>> declarations, String unreadable) {
        this.declarations = declarations;
        this.unreadable = unreadable;
    }

    /** The tables {@code loader} sees (the system class loader's for the bootstrap loader). */
    static ReleaseGateTables of(ClassLoader loader) {
        return BY_LOADER.get(loader);
    }

    /** The classes whose tables declare {@code tool} on {@code store}, by distinct class name. */
    List<Declaration> declarations(String store, String tool) {
        return declarations.getOrDefault(store, Map.of()).getOrDefault(tool, List.of());
    }

    /** The tools declared transactional on {@code store}. */
    java.util.Set<String> transactionalTools(String store) {
        java.util.Set<String> tools = new java.util.TreeSet<>();
        declarations.getOrDefault(store, Map.of()).forEach((tool, classes) -> {
            if (classes.stream().anyMatch(Declaration::transactional)) {
                tools.add(tool);
            }
        });
        return tools;
    }

    /** The stores the tables' tools use. */
    java.util.Set<String> stores() {
        return declarations.keySet();
    }

    /** Why a table on the class path could not be read, or null when every one was read. */
    String unreadable() {
        return unreadable;
    }

    private static ReleaseGateTables read(ClassLoader loader) {
        Map<String, Map<String, List<Declaration>>> found = new HashMap<>();
        ClassPathTables tables = ClassPathTables.of(loader);
        if (tables.unlisted() != null) {
            return new ReleaseGateTables(Map.of(), "the class path's " + ReleaseGateTable.RESOURCE
                    + " files cannot be listed (" + tables.unlisted().getClass().getSimpleName() + ")");
        }
        for (ClassPathTables.Table read : tables.tables()) {
            URL table = read.location();
            List<ListedTool> tools = read.tools();
            if (read.failure() != null) {
                return new ReleaseGateTables(Map.of(), table + " cannot be read as a release-gate table ("
                        + read.failure().getClass().getSimpleName() + ")");
            }
            for (ListedTool tool : tools) {
                List<Declaration> classes = found.computeIfAbsent(tool.store(), s -> new HashMap<>())
                        .computeIfAbsent(tool.name(), n -> new ArrayList<>());
                // The same class twice (a jar on the class path twice) is one declaration.
                if (classes.stream().noneMatch(d -> d.className().equals(tool.className()))) {
                    classes.add(new Declaration(tool.className(), table, tool.transactional()));
                }
            }
        }
        Map<String, Map<String, List<Declaration>>> frozen = new HashMap<>();
        for (Entry<String, Map<String, List<Declaration>>> store : found.entrySet()) {
            Map<String, List<Declaration>> tools = new HashMap<>();
            store.getValue().forEach((tool, classes) -> tools.put(tool, List.copyOf(classes)));
            frozen.put(store.getKey(), Map.copyOf(tools));
        }
        return new ReleaseGateTables(Map.copyOf(frozen), null);
    }
}
