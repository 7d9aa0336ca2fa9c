package io.idempotent.runtime.internal;

import io.idempotent.policy.internal.ListedTool;
import io.idempotent.policy.internal.ReleaseGateTable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.WeakHashMap;

/**
 * The release-gate tables ({@value ReleaseGateTable#RESOURCE}) that one class loader sees, every
 * copy on its class path, read once per loader: which classes declare each tool name on each
 * store. Two jars compiled apart can each declare a tool {@code refund} on the default store;
 * only these tables, read together, show it before either tool runs.
 */
final class ReleaseGateTables {

    /** Weak keys: a web application's loader that is discarded takes its tables with it. */
    private static final Map<ClassLoader, ReleaseGateTables> BY_LOADER = new WeakHashMap<>();

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
        ClassLoader key = loader != null ? loader : ClassLoader.getSystemClassLoader();
        synchronized (BY_LOADER) {
            return BY_LOADER.computeIfAbsent(key, ReleaseGateTables::read);
        }
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
        Enumeration<URL> tables;
        try {
            tables = loader.getResources(ReleaseGateTable.RESOURCE);
        } catch (IOException e) {
            return new ReleaseGateTables(Map.of(), "the class path's " + ReleaseGateTable.RESOURCE
                    + " files cannot be listed (" + e.getClass().getSimpleName() + ")");
        }
        while (tables.hasMoreElements()) {
            URL table = tables.nextElement();
            List<ListedTool> tools;
            try (InputStream in = table.openStream()) {
                tools = ReleaseGateTable.tools(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException | IllegalArgumentException e) {
                return new ReleaseGateTables(Map.of(), table + " cannot be read as a release-gate table ("
                        + e.getClass().getSimpleName() + ")");
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
