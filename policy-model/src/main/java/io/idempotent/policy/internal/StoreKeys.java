package io.idempotent.policy.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Every configuration key the library reads, and nothing else: the store keys,
 * {@code store.ATTRIBUTE} for the default store and {@code store.NAME.ATTRIBUTE} for any store,
 * with their system property, environment variable and agent argument forms; the runtime's other
 * settings; the agent's own flags; and the contract test kit's properties. (The project's own
 * builds and demos pass theirs under {@code build.}, which is not ours to check.) The prefixes {@code idempotent.} and {@code IDEMPOTENT_} are the library's, so a key
 * under them that is not listed here is a mistake (a typo would otherwise silently leave every
 * JVM on its own embedded store), reported with the nearest known key. Not for users.
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
            "connect.timeout", "socket.timeout", "answer.queue.size", "close.timeout", "replay.cache.size");

    /** The agent's own flags, given only as agent arguments (yes/no: {@link BooleanSetting}). */
    public static final List<String> AGENT_FLAGS = List.of("failOnMissingRuntime");

    /**
     * The runtime's yes/no settings that are not a store's ({@link BooleanSetting}), read from the
     * same sources as the store keys.
     */
    public static final List<String> RUNTIME_FLAGS = List.of("telemetry.operation-keys");

    /**
     * The runtime's whole-number settings that are not a store's: the asynchronous tools' threads
     * for store work and their bound of pending calls, and how long an in-flight duplicate waits for
     * the original's outcome ({@code duplicate.wait.ms}), read from the same sources as the store keys.
     */
    public static final List<String> RUNTIME_NUMBERS = List.of("async.threads", "async.max.pending",
            "duplicate.wait.ms");

    /**
     * The stores, by name, that this JVM configures for tools it loads later than the agent's start
     * or the runtime's, which may therefore use no tool the release-gate tables list
     * ({@link ConfiguredStores}).
     */
    public static final String LOADED_LATER = "stores.loaded-later";

    /**
     * The runtime's settings that are neither a store's nor yes/no, read from the same sources as
     * the store keys, agent arguments included.
     */
    public static final List<String> RUNTIME_SETTINGS = List.of(LOADED_LATER, "health.timeout");

    /**
     * The embedded default store's URL: an H2 file in {@code ./.idempotent/}, which several JVMs on
     * one machine share, used only when no store URL is configured at all.
     */
    public static final String EMBEDDED_URL = "jdbc:h2:file:./.idempotent/operations;AUTO_SERVER=TRUE;WRITE_DELAY=0";

    /** Settings read only from the environment: the command line's console token. */
    public static final List<String> ENVIRONMENT_SETTINGS = List.of("console.token");

    /**
     * System properties read by other parts of the library: the contract test kit's PostgreSQL
     * server ({@code idempotent-test}, {@code KitDatabase}).
     */
    public static final List<String> LIBRARY_PROPERTIES = List.of("test.postgres.url", "test.postgres.user",
            "test.postgres.password");

    private static final String AGENT_SUB_PREFIX = "agent.";

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
        return storeOfVariable(variable, "url");
    }

    /**
     * The named store whose {@code attribute} an environment variable sets
     * ({@code IDEMPOTENT_STORE_BILLING_EU_POOL_SIZE} is store {@code billing_eu} for
     * {@code pool.size}), or null.
     */
    public static String storeOfVariable(String variable, String attribute) {
        String prefix = ENV_PREFIX + "STORE_";
        String suffix = "_" + environmentVariable(attribute).substring(ENV_PREFIX.length());
        if (!variable.startsWith(prefix) || !variable.endsWith(suffix)
                || variable.length() <= prefix.length() + suffix.length()) {
            return null;
        }
        String name = variable.substring(prefix.length(), variable.length() - suffix.length());
        String lower = name.toLowerCase(Locale.ROOT);
        return name.equals(lower.toUpperCase(Locale.ROOT)) && StoreNames.isValid(lower) ? lower : null;
    }

    /**
     * What is wrong with system property {@code property}, or null when it is not under
     * {@code idempotent.} or is a key the library reads. Names the nearest known property.
     */
    public static String propertyProblem(String property) {
        if (property == null || !property.startsWith(PROPERTY_PREFIX)) {
            return null;
        }
        String bare = property.substring(PROPERTY_PREFIX.length());
        if (LIBRARY_PROPERTIES.contains(bare) || isRuntimeKey(bare)
                || (bare.startsWith(AGENT_SUB_PREFIX) && isRuntimeKey(bare.substring(AGENT_SUB_PREFIX.length())))) {
            return null;
        }
        Set<String> candidates = new LinkedHashSet<>();
        List<String> runtimeKeys = runtimeKeyCandidates(guessedStoreNames(bare, "\\."));
        candidates.addAll(runtimeKeys);
        candidates.addAll(LIBRARY_PROPERTIES);
        if (bare.startsWith(AGENT_SUB_PREFIX)) {
            runtimeKeys.forEach(key -> candidates.add(AGENT_SUB_PREFIX + key));
        }
        return "unknown setting " + property + " (a system property); the nearest known one is " + PROPERTY_PREFIX
                + NearestKey.among(bare, candidates);
    }

    /**
     * What is wrong with environment variable {@code variable}, or null when it is not under
     * {@code IDEMPOTENT_} or is one the library reads. Names the nearest known variable.
     */
    public static String environmentProblem(String variable) {
        if (variable == null || !variable.startsWith(ENV_PREFIX)) {
            return null;
        }
        for (String key : ENVIRONMENT_SETTINGS) {
            if (environmentVariable(key).equals(variable)) {
                return null;
            }
        }
        List<String> candidates = new ArrayList<>();
        for (String key : runtimeKeyCandidates(guessedStoreNames(variable.substring(ENV_PREFIX.length()), "_"))) {
            candidates.add(environmentVariable(key));
        }
        if (candidates.contains(variable) || isNamedStoreVariable(variable)) {
            return null;
        }
        ENVIRONMENT_SETTINGS.forEach(key -> candidates.add(environmentVariable(key)));
        return "unknown setting " + variable + " (an environment variable); the nearest known one is "
                + NearestKey.among(variable, candidates);
    }

    /**
     * What is wrong with agent argument {@code key}, or null when the agent knows it. Names the
     * nearest known argument.
     */
    public static String agentArgumentProblem(String key) {
        if (AGENT_FLAGS.contains(key) || RUNTIME_SETTINGS.contains(key) || parse(key) != null) {
            return null;
        }
        List<String> candidates = new ArrayList<>();
        for (String name : guessedStoreNames(key, "\\.")) {
            candidates.addAll(storeKeys(name));
        }
        candidates.addAll(RUNTIME_SETTINGS);
        candidates.addAll(AGENT_FLAGS);
        return "agent argument " + key + " is not a setting of the agent; the nearest known one is "
                + NearestKey.among(key, candidates);
    }

    private static boolean isRuntimeKey(String key) {
        return RUNTIME_FLAGS.contains(key) || RUNTIME_NUMBERS.contains(key) || RUNTIME_SETTINGS.contains(key)
                || parse(key) != null;
    }

    /** {@code IDEMPOTENT_STORE_NAME_ATTRIBUTE} for any valid store name. */
    private static boolean isNamedStoreVariable(String variable) {
        for (String attribute : ATTRIBUTES) {
            if (storeOfVariable(variable, attribute) != null) {
                return true;
            }
        }
        return false;
    }

    /** The keys a mistyped key may have meant: the default store's, those of the stores it seems to name, the flags. */
    private static List<String> runtimeKeyCandidates(List<String> storeNames) {
        List<String> keys = new ArrayList<>();
        for (String name : storeNames) {
            keys.addAll(storeKeys(name));
        }
        keys.addAll(RUNTIME_FLAGS);
        keys.addAll(RUNTIME_NUMBERS);
        keys.addAll(RUNTIME_SETTINGS);
        return keys;
    }

    private static List<String> storeKeys(String store) {
        List<String> keys = new ArrayList<>();
        for (String attribute : ATTRIBUTES) {
            keys.add(store.equals(StoreNames.DEFAULT) ? "store." + attribute : "store." + store + "." + attribute);
        }
        return keys;
    }

    /**
     * {@code default}, then every run of consecutive parts of {@code typed} (split at
     * {@code separator}) that is a valid store name: the named store a mistyped key may be about.
     */
    private static List<String> guessedStoreNames(String typed, String separator) {
        Set<String> names = new LinkedHashSet<>();
        names.add(StoreNames.DEFAULT);
        String[] parts = typed.toLowerCase(Locale.ROOT).split(separator);
        String joiner = separator.equals("_") ? "_" : ".";
        for (int from = 0; from < parts.length; from++) {
            StringBuilder name = new StringBuilder();
            for (int to = from; to < parts.length; to++) {
                if (to > from) {
                    name.append(joiner);
                }
                name.append(parts[to]);
                String candidate = name.toString();
                if (StoreNames.isValid(candidate) && !candidate.equals("store") && !ATTRIBUTES.contains(candidate)) {
                    names.add(candidate);
                }
            }
        }
        return List.copyOf(names);
    }
}
