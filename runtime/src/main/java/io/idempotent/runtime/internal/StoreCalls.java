package io.idempotent.runtime.internal;

import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import java.util.function.Supplier;

/**
 * The store calls the engine's rooms make after the claim: a store failure names the tool and key
 * of the call it happened to, which the store, answering for a statement, does not always know.
 */
final class StoreCalls {

    private StoreCalls() {
    }

    /** Runs a store call, naming the tool and key in a store failure. */
    static <T> T withKey(String tool, String key, Supplier<T> storeCall) {
        try {
            return storeCall.get();
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            if (e.operationKey() != null) {
                throw e;
            }
            IdempotencyException named = e instanceof StoreUnavailableException
                    ? new StoreUnavailableException(tool, key, e.happened(), e.advice(), e.getCause())
                    : new StoreConfigurationException(tool, key, e.happened(), e.advice(), e.getCause());
            for (Throwable earlier : e.getSuppressed()) {
                named.addSuppressed(earlier);
            }
            throw named;
        }
    }
}
