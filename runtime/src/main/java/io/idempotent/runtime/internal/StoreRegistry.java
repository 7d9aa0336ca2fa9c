package io.idempotent.runtime.internal;

import io.idempotent.policy.internal.ConfiguredStores;
import io.idempotent.policy.internal.StoreKeys;
import io.idempotent.policy.internal.StoreNames;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.internal.store.OperationStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The configured operation stores by name. */
public final class StoreRegistry implements AutoCloseable {

    private final Map<String, OperationStore> stores;
    /** The key that set each store's URL, for messages; absent for a store built in code. */
    private final Map<String, String> configuredBy;

    /** The stores, by name. */
    public StoreRegistry(Map<String, OperationStore> stores) {
        this(stores, Map.of());
    }

    /** The stores, by name, and the key that set the URL of each store read from the configuration. */
    public StoreRegistry(Map<String, OperationStore> stores, Map<String, String> configuredBy) {
        this.stores = new LinkedHashMap<>(stores);
        this.configuredBy = Map.copyOf(configuredBy);
    }

    /**
     * The store named {@code name}.
     *
     * @throws StoreConfigurationException naming the configured stores and the nearest of them
     *     when there is none (the embedded default is never opened in the place of a missing one)
     */
    public OperationStore get(String name, String tool) {
        OperationStore store = stores.get(name);
        if (store == null) {
            List<String> configured = new ArrayList<>();
            stores.keySet().forEach(n -> configured.add(configuredBy.containsKey(n) ? n + " (" + configuredBy.get(n)
                    + ")" : n));
            throw new StoreConfigurationException(tool, null, "the tool uses store \"" + name + "\", but the"
                    + " configured stores are " + configured + " (" + ConfiguredStores.nearest(name, stores.keySet())
                    + (name.equals(StoreNames.DEFAULT) ? "; " + ConfiguredStores.EMBEDDED_ONLY : "") + "). Configure it with store." + name + ".url"
                    + " (system property idempotent.store." + name + ".url or environment "
                    + StoreKeys.environmentVariable(StoreKeys.keys(name, "url").get(0)) + "), or builder().store(\""
                    + name + "\", ...)");
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
