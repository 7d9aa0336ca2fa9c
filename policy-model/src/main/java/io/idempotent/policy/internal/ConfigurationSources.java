package io.idempotent.policy.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Where each setting of the library is read from, highest first: the agent's arguments (which the
 * agent hands over as system properties {@code idempotent.agent.KEY}), system properties
 * {@code idempotent.KEY}, then the environment {@code IDEMPOTENT_KEY}. The one home of that
 * precedence: the runtime reads every setting through it, and the agent, which must not load the
 * runtime at start, reads the stores it checks through it. Not for users.
 */
public final class ConfigurationSources {

    private final Map<String, String> properties;
    private final Map<String, String> environment;

    /**
     * @param properties system properties under {@code idempotent.} (others are ignored)
     * @param environment the environment
     */
    public ConfigurationSources(Map<String, String> properties, Map<String, String> environment) {
        this.properties = Map.copyOf(properties);
        this.environment = Map.copyOf(environment);
    }

    /** This JVM's {@code idempotent.*} system properties and its environment. */
    public static ConfigurationSources fromSystem() {
        return new ConfigurationSources(systemProperties(), System.getenv());
    }

    /** This JVM's system properties under {@code idempotent.}, the agent's arguments among them. */
    public static Map<String, String> systemProperties() {
        Map<String, String> props = new java.util.HashMap<>();
        System.getProperties().forEach((k, v) -> {
            if (k instanceof String key && key.startsWith(StoreKeys.PROPERTY_PREFIX) && v instanceof String value) {
                props.put(key, value);
            }
        });
        return props;
    }

    /**
     * The system property or environment variable that sets {@code store.ATTRIBUTE} (default
     * store) or {@code store.NAME.ATTRIBUTE}, highest source first, or null: what a message names.
     *
     * @param agentMayGiveIt false for a password, which is never taken from the agent's arguments
     */
    public String source(String store, String attribute, boolean agentMayGiveIt) {
        return first(StoreKeys.keys(store, attribute), agentMayGiveIt);
    }

    /** The key that sets {@code key}, a setting that is not a store's ({@code stores.loaded-later}), or null. */
    public String source(String key) {
        return first(List.of(key), true);
    }

    /** The value set under {@code source}, a key {@link #source} returned; null for null. */
    public String value(String source) {
        if (source == null) {
            return null;
        }
        return source.startsWith(StoreKeys.PROPERTY_PREFIX) ? properties.get(source) : environment.get(source);
    }

    /**
     * Every store that has a URL, with the key that sets it: {@code default} first, then the named
     * stores by name. Empty when no store URL is configured at all.
     */
    public Map<String, String> urls() {
        TreeSet<String> names = new TreeSet<>();
        for (String key : properties.keySet()) {
            StoreKeys.Key parsed = StoreKeys.parse(bare(key));
            if (parsed != null && parsed.attribute().equals("url")) {
                names.add(parsed.store());
            }
        }
        for (String variable : environment.keySet()) {
            String store = StoreKeys.storeOfUrlVariable(variable);
            if (store != null) {
                names.add(store);
            }
        }
        names.remove(StoreNames.DEFAULT);
        Map<String, String> urls = new LinkedHashMap<>();
        String defaultUrl = source(StoreNames.DEFAULT, "url", true);
        if (defaultUrl != null) {
            urls.put(StoreNames.DEFAULT, defaultUrl);
        }
        for (String name : names) {
            urls.put(name, source(name, "url", true));
        }
        return urls;
    }

    private String first(List<String> keys, boolean agentMayGiveIt) {
        for (String key : keys) {
            if (agentMayGiveIt && properties.containsKey(StoreKeys.AGENT_PREFIX + key)) {
                return StoreKeys.AGENT_PREFIX + key;
            }
        }
        for (String key : keys) {
            if (properties.containsKey(StoreKeys.PROPERTY_PREFIX + key)) {
                return StoreKeys.PROPERTY_PREFIX + key;
            }
        }
        for (String key : keys) {
            String variable = StoreKeys.environmentVariable(key);
            if (environment.containsKey(variable)) {
                return variable;
            }
        }
        return null;
    }

    /** A property's key without its prefix ({@code idempotent.agent.} or {@code idempotent.}), or null. */
    public static String bare(String property) {
        if (property.startsWith(StoreKeys.AGENT_PREFIX)) {
            return property.substring(StoreKeys.AGENT_PREFIX.length());
        }
        return property.startsWith(StoreKeys.PROPERTY_PREFIX) ? property.substring(StoreKeys.PROPERTY_PREFIX.length())
                : null;
    }
}
