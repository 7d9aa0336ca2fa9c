package io.idempotent.runtime.internal;

import static io.idempotent.policy.internal.StoreKeys.PROPERTY_PREFIX;

import io.idempotent.policy.internal.ConfigurationSources;
import io.idempotent.policy.internal.StoreKeys;
import io.idempotent.policy.internal.StoreNames;
import io.idempotent.runtime.StoreConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The refusal of keys that configure nothing: a key under {@code idempotent.} or
 * {@code IDEMPOTENT_} that the library does not read ({@link StoreKeys}), and a store's user,
 * password or other setting without the store's URL. Each is a {@link StoreConfigurationException},
 * so the runtime does not start. Apart from {@link RuntimeConfiguration}, which reads the values
 * of the keys that are settings, because these checks look at the keys as a whole, before any value.
 */
final class ConfigurationKeyChecks {

    private final Map<String, String> properties;
    private final Map<String, String> environment;
    private final ConfigurationSources sources;

    /** The checks of a configuration read from {@code properties} and {@code environment} through {@code sources}. */
    ConfigurationKeyChecks(Map<String, String> properties, Map<String, String> environment,
            ConfigurationSources sources) {
        this.properties = properties;
        this.environment = environment;
        this.sources = sources;
    }

    private static final String KEY_ADVICE = "Every idempotent.* system property and IDEMPOTENT_* environment"
            + " variable must be a setting of the library (docs/configuration.md, \"Every setting\"): correct or remove it."
            + " The runtime does not start, so no tool call is claimed and no tool body runs";

    /** Refuses every key under the library's prefixes that is not one of its settings, all named in one message. */
    void refuseUnknownKeys() {
        List<String> problems = new ArrayList<>();
        new TreeSet<>(properties.keySet()).forEach(key -> addIfPresent(problems, StoreKeys.propertyProblem(key)));
        new TreeSet<>(environment.keySet()).forEach(key -> addIfPresent(problems, StoreKeys.environmentProblem(key)));
        if (!problems.isEmpty()) {
            throw new StoreConfigurationException(null, null, String.join("; ", problems), KEY_ADVICE, null);
        }
    }

    private static void addIfPresent(List<String> problems, String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }

    /**
     * A user, password or other setting of a store without the store's URL configures nothing:
     * the default store would silently be the embedded one, a named store would be missing.
     */
    void refuseSettingsWithoutUrl() {
        TreeSet<String> stores = new TreeSet<>();
        stores.add(StoreNames.DEFAULT);
        for (String key : properties.keySet()) {
            StoreKeys.Key parsed = StoreKeys.parse(ConfigurationSources.bare(key));
            if (parsed != null) {
                stores.add(parsed.store());
            }
        }
        for (String variable : environment.keySet()) {
            for (String attribute : StoreKeys.ATTRIBUTES) {
                String store = StoreKeys.storeOfVariable(variable, attribute);
                if (store != null) {
                    stores.add(store);
                }
            }
        }
        for (String store : stores) {
            if (source(store, "url", true) != null) {
                continue;
            }
            // The embedded default store takes a schema mode, pool size and timeout, but no credentials.
            List<String> attributes = store.equals(StoreNames.DEFAULT) ? List.of("user", "password")
                    : StoreKeys.ATTRIBUTES;
            List<String> set = new ArrayList<>();
            for (String attribute : attributes) {
                String source = source(store, attribute, !attribute.equals("password"));
                if (source != null) {
                    set.add(source);
                }
            }
            if (!set.isEmpty()) {
                String urlKey = StoreKeys.keys(store, "url").get(0);
                throw new StoreConfigurationException(null, null, "store " + store + " has " + String.join(", ", set)
                        + " but no url, so " + (store.equals(StoreNames.DEFAULT)
                                ? "it would be the embedded H2 store, not the database these credentials are for"
                                : "it configures no store"),
                        "Set " + urlKey + " (-D" + PROPERTY_PREFIX + urlKey + " or "
                                + StoreKeys.environmentVariable(urlKey) + ") too, or remove " + String.join(", ", set),
                        null);
            }
        }
    }

    /**
     * The system property or environment variable that sets {@code store.ATTRIBUTE} (default
     * store) or {@code store.NAME.ATTRIBUTE}, highest source first, or null: what a message names.
     */
    private String source(String store, String attribute, boolean agentMayGiveIt) {
        return sources.source(store, attribute, agentMayGiveIt);
    }
}
