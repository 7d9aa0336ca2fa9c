package io.idempotent.runtime.internal;

import io.idempotent.runtime.internal.store.OperationStore;
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

    /**
     * The tools that the visible tables declare transactional on {@code store}: a store that
     * cannot run a claim, a body and a completion in one transaction is refused at start for them.
     */
    public static Set<String> transactionalTools(String store) {
        Set<String> tools = new TreeSet<>(ReleaseGateTables.of(ToolStores.class.getClassLoader())
                .transactionalTools(store));
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null) {
            tools.addAll(ReleaseGateTables.of(context).transactionalTools(store));
        }
        return tools;
    }

    /**
     * Refuses to start a runtime one of whose stores cannot run the transactional tools the
     * visible tables declare on it (the embedded default shared by several JVMs, for one).
     *
     * @throws io.idempotent.runtime.StoreConfigurationException naming the first such tool and its store
     */
    public static void requireTransactionsWhereDeclared(java.util.Map<String, OperationStore> stores) {
        stores.forEach((name, store) -> {
            Set<String> tools = transactionalTools(name);
            if (!tools.isEmpty() && store.transactions().isEmpty()) {
                throw TransactionalCalls.incapableStore(tools.iterator().next(), null, name, "the runtime does"
                        + " not start");
            }
        });
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
