package io.idempotent.runtime;

import java.util.Objects;

/**
 * Whether one operation store answered a {@linkplain StoreReachability#check reachability check}:
 * what a health check reports per store. The detail names the store and what failed, never a
 * stored payload, result or error body.
 *
 * @param store the store's name ({@code "default"}, or the name given in {@code store.NAME.url})
 * @param reachable whether the store answered a read of its operations table within the bound
 * @param detail empty when reachable; otherwise what went wrong (no connection, no reply within
 *     the bound, the runtime's refusal) and where an operator looks
 */
public record StoreCheck(String store, boolean reachable, String detail) {

    /** Checks that the store is named and the detail present. */
    public StoreCheck {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(detail, "detail");
    }
}
