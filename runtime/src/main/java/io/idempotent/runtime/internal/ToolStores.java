package io.idempotent.runtime.internal;

import java.util.Set;
import java.util.TreeSet;

/**
 * The stores that the tools of this JVM use, as far as a runtime built from the configuration can
 * know them when it starts: those the release-gate tables ({@code META-INF/idempotent/tools.json},
 * written by the processor beside each generated binding) list, as seen by the runtime's class
 * loader and the thread's context class loader (a Spring Boot jar's or a web application's,
 * which sees the application's own tables). What a configured store is checked against
 * ({@link RuntimeConfiguration#requireUsedBy}).
 */
public final class ToolStores {

    private ToolStores() {
    }

    /** The stores the visible tables list; empty when there is none. */
    public static Set<String> listed() {
        Set<String> stores = new TreeSet<>(ReleaseGateTables.of(ToolStores.class.getClassLoader()).stores());
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null) {
            stores.addAll(ReleaseGateTables.of(context).stores());
        }
        return stores;
    }
}
