package io.idempotent.runtime.internal;

import io.idempotent.runtime.internal.store.OperationStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Opens the stores a runtime was built with, in the order they were given, and checks that every
 * store whose tools declare a transaction can give one ({@link ToolStores}). When one fails to
 * open, or the check refuses, the stores already opened are closed before the failure is thrown,
 * so a runtime that was never built leaves no connection pool behind. Apart from the builder,
 * which only collects how each store is opened.
 */
public final class StoreOpening {

    private StoreOpening() {
    }

    /**
     * The opened stores.
     *
     * @param stores how to open each store, by name, in order
     * @param configuredBy the key that set the URL of each store read from the configuration, for messages
     */
    public static StoreRegistry open(Map<String, Supplier<OperationStore>> stores, Map<String, String> configuredBy) {
        Map<String, OperationStore> opened = new LinkedHashMap<>();
        try {
            stores.forEach((name, open) -> opened.put(name, open.get()));
            ToolStores.requireTransactionsWhereDeclared(opened);
        } catch (RuntimeException e) {
            new StoreRegistry(opened).close();
            throw e;
        }
        return new StoreRegistry(opened, configuredBy);
    }
}
