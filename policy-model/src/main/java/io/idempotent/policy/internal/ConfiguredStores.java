package io.idempotent.policy.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The stores a JVM's configuration names, checked against the stores its tools use: the one home
 * of the rules that keep a misspelt store name from silently sending the tools to the embedded
 * H2 file ({@code IDEMPOTENT_STORE_DEFALT_URL} configures a store {@code defalt}, and the tools of
 * {@code default} would otherwise run on a file that no other replica sees). Not for users.
 * <ul>
 * <li>A store with a URL that no tool of the JVM uses is refused, naming the nearest store the
 * tools use; {@code default} needs no tool (a typo cannot produce it), and a store whose tools
 * the JVM loads later is admitted by name with {@value StoreKeys#LOADED_LATER}.</li>
 * <li>Once any store URL is configured, the embedded default is never a tool's store: it is
 * chosen only when no store URL is configured at all.</li>
 * </ul>
 * The switch cannot be turned on by a typo: a misspelt key is an unknown setting
 * ({@link StoreKeys}), and every name it lists must be a configured store's, exactly.
 */
public final class ConfiguredStores {

    /** What to do about a refusal of these rules, for every message that gives one. */
    public static final String ADVICE = "Correct the store's name where its URL is set (store.NAME.url as an agent"
            + " argument, -Didempotent.store.NAME.url or IDEMPOTENT_STORE_NAME_URL), or give the store the tools use"
            + " a URL; the embedded H2 default takes a tool only when no store URL is configured at all, and a"
            + " configured store whose tools this JVM loads later is admitted by naming it in "
            + StoreKeys.LOADED_LATER + ". No tool call is claimed and no tool body runs until then";

    /** The rule every message about the embedded default states. */
    public static final String EMBEDDED_ONLY = "the embedded H2 default is used only when no store URL is configured"
            + " at all";

    /** Each store with a URL and the key that sets it, {@code default} first. */
    private final Map<String, String> urls;
    private final List<String> loadedLater;

    private ConfiguredStores(Map<String, String> urls, List<String> loadedLater) {
        this.urls = Collections.unmodifiableMap(new LinkedHashMap<>(urls));
        this.loadedLater = loadedLater;
    }

    /**
     * The stores {@code sources} configures, with {@value StoreKeys#LOADED_LATER} checked.
     *
     * @throws IllegalArgumentException when the switch names no store, a name no store can have,
     *     or a store without a URL
     */
    public static ConfiguredStores of(ConfigurationSources sources) {
        Map<String, String> urls = sources.urls();
        String source = sources.source(StoreKeys.LOADED_LATER);
        List<String> later = new ArrayList<>();
        if (source != null) {
            for (String name : sources.value(source).split(",")) {
                if (!name.isBlank()) {
                    later.add(name.strip());
                }
            }
            if (later.isEmpty()) {
                throw new IllegalArgumentException(source + " names no store: list, by name, the configured stores"
                        + " whose tools this JVM loads later");
            }
            for (String name : later) {
                String problem = StoreNames.problem(name);
                if (problem != null) {
                    throw new IllegalArgumentException(source + ": " + problem);
                }
                if (!urls.containsKey(name)) {
                    throw new IllegalArgumentException(source + " names " + name + ", which no store URL configures ("
                            + (urls.isEmpty() ? "none is configured" : "the configured stores are " + listed(urls)
                                    + "; did you mean `" + NearestKey.among(name, urls.keySet()) + "`?") + ")");
                }
            }
        }
        return new ConfiguredStores(urls, List.copyOf(later));
    }

    /** Every store that has a URL, with the key that sets it, {@code default} first. */
    public Map<String, String> urls() {
        return urls;
    }

    /** Whether no store URL is configured at all: the only case in which the embedded default is used. */
    public boolean embeddedDefault() {
        return urls.isEmpty();
    }

    /**
     * What is wrong with this configuration for a JVM whose tools use {@code toolStores}, or null:
     * a configured store no tool uses (and the switch does not name), and tools of the default
     * store that would run on the embedded file while other stores are configured.
     */
    public String problemWith(Collection<String> toolStores) {
        Set<String> used = new LinkedHashSet<>();
        used.add(StoreNames.DEFAULT);
        used.addAll(new TreeSet<>(toolStores));
        List<String> problems = new ArrayList<>();
        for (String store : urls.keySet()) {
            if (!used.contains(store) && !loadedLater.contains(store)) {
                problems.add("store " + store + " is configured (" + urls.get(store) + "), but no tool of this JVM"
                        + " uses it (the tools use " + String.join(", ", used) + "); did you mean `"
                        + NearestKey.among(store, used) + "`?");
            }
        }
        if (!urls.isEmpty() && toolStores.contains(StoreNames.DEFAULT) && !urls.containsKey(StoreNames.DEFAULT)) {
            problems.add("the tools of store default would run on the embedded H2 file, but the configured stores are "
                    + listed(urls) + ": " + EMBEDDED_ONLY);
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    /**
     * What is wrong with working on {@code store} (a tool's, the command line's {@code --store}),
     * or null when it has a URL, or is the default and nothing at all is configured.
     */
    public String problemWith(String store) {
        if (urls.containsKey(store) || (urls.isEmpty() && store.equals(StoreNames.DEFAULT))) {
            return null;
        }
        return urls.isEmpty() ? "store " + store + " has no url" : notConfigured(store, urls);
    }

    /**
     * Why {@code store} cannot be used: it has no URL while {@code configured} (each store with the
     * key that sets it, or null when the application built it in code) are there. Names the nearest
     * configured store; for {@code default}, says that the embedded file is not used.
     */
    public static String notConfigured(String store, Map<String, String> configured) {
        return "store " + store + " has no url" + (store.equals(StoreNames.DEFAULT) ? ", and " + EMBEDDED_ONLY : "") + "; the configured stores are "
                + listed(configured) + "; " + nearest(store, configured.keySet());
    }

    /**
     * The question a message about a store without a URL ends with: {@code did you mean `billing`?}
     * for a named store, the nearest of {@code configured} (not empty); for {@code default}, which
     * a typo cannot produce, {@code is `defalt` meant to be `default`?}.
     */
    public static String nearest(String store, Collection<String> configured) {
        if (configured.isEmpty()) {
            return "no store is configured";
        }
        String nearest = NearestKey.among(store, configured);
        return store.equals(StoreNames.DEFAULT) ? "is `" + nearest + "` meant to be `default`?"
                : "did you mean `" + nearest + "`?";
    }

    /**
     * The stores in a start line: the embedded file when nothing is configured (said so, since every
     * machine then keeps operations of its own), else each configured store and where it was set.
     */
    public String describe() {
        if (urls.isEmpty()) {
            return "the embedded H2 store ./.idempotent/operations, as no store URL is configured (each machine then"
                    + " keeps operations of its own)";
        }
        return "the configured stores " + listed(urls);
    }

    /** {@code billing (IDEMPOTENT_STORE_BILLING_URL), mail}: each store with where it was set, if known. */
    private static String listed(Map<String, String> stores) {
        List<String> parts = new ArrayList<>();
        stores.forEach((name, source) -> parts.add(source == null ? name : name + " (" + source + ")"));
        return String.join(", ", parts);
    }
}
