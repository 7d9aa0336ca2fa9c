package io.idempotent.runtime.internal;

import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.internal.store.OperationStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The configured operation stores by name. */
public final class StoreRegistry implements AutoCloseable {

    private final Map<String, OperationStore> stores;

    /** The stores, by name. */
    public StoreRegistry(Map<String, OperationStore> stores) {
        this.stores = new LinkedHashMap<>(stores);
    }

    /**
     * The store named {@code name}.
     *
     * @throws StoreConfigurationException naming the configured stores when there is none
     */
    public OperationStore get(String name, String tool) {
        OperationStore store = stores.get(name);
        if (store == null) {
            throw new StoreConfigurationException(tool, null, "the tool uses store \"" + name + "\", but the"
                    + " configured stores are " + stores.keySet() + ". Configure it with store." + name + ".url"
                    + " (system property idempotent.store." + name + ".url or environment IDEMPOTENT_STORE_"
                    + name.toUpperCase(java.util.Locale.ROOT) + "_URL), or builder().store(\"" + name + "\", ...)");
        }
        return store;
    }

    /** The names of the configured stores. */
    public Set<String> names() {
        return stores.keySet();
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (OperationStore store : stores.values()) {
            try {
                store.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
