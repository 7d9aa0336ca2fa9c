package io.idempotent.policy.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * The release-gate tables ({@value ReleaseGateTable#RESOURCE}) that one class loader sees, every
 * copy on its class path, read once per loader and kept while the loader lives: the one reader of
 * the tables through a class loader. Each caller decides what a table it cannot read means to it
 * (the runtime refuses the tools' calls, its readiness check counts fewer tools, the agent wraps
 * such tools by their annotation only). Not for users.
 *
 * <p>The runtime's readiness check, its tool-name and store checks share one reading per loader.
 * The agent reads through its own copy of this class: it carries policy-model relocated inside its
 * jar (the agent's classes load from the agent jar, where the application's idempotent-runtime may
 * not be visible, or may be another version, so the agent cannot call the runtime's copy), and
 * reads each loader's tables once more there.
 */
public final class ClassPathTables {

    private static final PerLoader<ClassPathTables> BY_LOADER = new PerLoader<>(ClassPathTables::read);

    /**
     * One table file on the class path.
     *
     * @param location where it is
     * @param tools the tools it lists, in its order; empty when it could not be read
     * @param failure why it could not be read ({@link IOException}, or {@link IllegalArgumentException}
     *     when it is no release-gate table), or null
     */
    public record Table(URL location, List<ListedTool> tools, Exception failure) {
    }

    private final List<Table> tables;
    private final IOException unlisted;

    private ClassPathTables(List<Table> tables, IOException unlisted) {
        this.tables = List.copyOf(tables);
        this.unlisted = unlisted;
    }

    /**
     * The tables {@code loader} sees (the system class loader's for {@code null}).
     *
     * @throws RuntimeException what the loader or a table's stream throws other than an
     *     {@link IOException}; nothing is then kept, and the next call asks again
     */
    public static ClassPathTables of(ClassLoader loader) {
        return BY_LOADER.get(loader);
    }

    /** Every table file, in the loader's order. */
    public List<Table> tables() {
        return tables;
    }

    /** Why the loader could not list its tables (then {@link #tables()} is empty), or null. */
    public IOException unlisted() {
        return unlisted;
    }

    private static ClassPathTables read(ClassLoader loader) {
        Enumeration<URL> locations;
        try {
            locations = loader.getResources(ReleaseGateTable.RESOURCE);
        } catch (IOException e) {
            return new ClassPathTables(List.of(), e);
        }
        List<Table> tables = new ArrayList<>();
        while (locations.hasMoreElements()) {
            URL location = locations.nextElement();
            try (InputStream in = location.openStream()) {
                tables.add(new Table(location, ReleaseGateTable.tools(in), null));
            } catch (IOException | IllegalArgumentException e) {
                tables.add(new Table(location, List.of(), e));
            }
        }
        return new ClassPathTables(tables, null);
    }
}
