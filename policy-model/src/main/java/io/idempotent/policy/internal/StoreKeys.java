package io.idempotent.policy.internal;

import java.util.List;
import java.util.Locale;

/**
 * The store configuration keys: {@code store.ATTRIBUTE} for the default store and
 * {@code store.NAME.ATTRIBUTE} for any store, with their system property, environment variable
 * and agent argument forms. Not for users.
 */
public final class StoreKeys {

    /** The system property prefix under which the agent passes its arguments to the runtime. */
    public static final String AGENT_PREFIX = "idempotent.agent.";
    /** The system property prefix. */
    public static final String PROPERTY_PREFIX = "idempotent.";
    /** The environment variable prefix. */
    public static final String ENV_PREFIX = "IDEMPOTENT_";

    /** Every attribute a store has. */
    public static final List<String> ATTRIBUTES = List.of("url", "user", "password", "schema", "pool.size",
            "connect.timeout");

    /** A parsed key: the store it configures and the attribute. */
    public record Key(String store, String attribute) {
    }

    private StoreKeys() {
    }

    /**
     * {@code store.ATTRIBUTE} or {@code store.NAME.ATTRIBUTE} parsed, or null if {@code key} is
     * not a store key (an unknown attribute, or a store name that {@link StoreNames} refuses).
     */
    public static Key parse(String key) {
        if (key == null || !key.startsWith("store.")) {
            return null;
        }
        String rest = key.substring("store.".length());
        if (ATTRIBUTES.contains(rest)) {
            return new Key(StoreNames.DEFAULT, rest);
        }
        int dot = rest.indexOf('.');
        if (dot <= 0) {
            return null;
        }
        String store = rest.substring(0, dot);
        String attribute = rest.substring(dot + 1);
        return StoreNames.isValid(store) && ATTRIBUTES.contains(attribute) ? new Key(store, attribute) : null;
    }

    /** The keys that set {@code attribute} of {@code store}, the more specific last. */
    public static List<String> keys(String store, String attribute) {
        String named = "store." + store + "." + attribute;
        return store.equals(StoreNames.DEFAULT) ? List.of("store." + attribute, named) : List.of(named);
    }

    /** The environment variable of a key: {@code store.pool.size} is {@code IDEMPOTENT_STORE_POOL_SIZE}. */
    public static String environmentVariable(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /**
     * The store whose url an environment variable sets ({@code IDEMPOTENT_STORE_BILLING_EU_URL}
     * is store {@code billing_eu}), or null.
     */
    public static String storeOfUrlVariable(String variable) {
        String prefix = ENV_PREFIX + "STORE_";
        if (!variable.startsWith(prefix) || !variable.endsWith("_URL") || variable.length() <= prefix.length() + 4) {
            return null;
        }
        String name = variable.substring(prefix.length(), variable.length() - 4).toLowerCase(Locale.ROOT);
        return StoreNames.isValid(name) ? name : null;
    }
}
