package io.idempotent.runtime.internal;

import io.idempotent.policy.internal.BooleanSetting;
import io.idempotent.policy.internal.ConfigurationSources;
import io.idempotent.policy.internal.ConfiguredStores;
import io.idempotent.policy.internal.StoreKeys;
import io.idempotent.policy.internal.StoreNames;
import io.idempotent.policy.internal.UrlCredentials;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.internal.store.AnswerLogLimits;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Store configuration from, highest first: the agent's arguments (which the agent hands over as
 * system properties {@code idempotent.agent.KEY}), system properties {@code idempotent.KEY}, the
 * environment {@code IDEMPOTENT_KEY} (upper case, dots as underscores; the precedence is
 * {@link ConfigurationSources}'), then the embedded default, an H2 file database in
 * {@code ./.idempotent/} that several JVMs on one machine share, only when no store URL is
 * configured at all ({@link ConfiguredStores}). Passwords are never taken from the agent's
 * arguments.
 *
 * <p>Reading fails closed: a key under {@code idempotent.} or {@code IDEMPOTENT_} that the
 * library does not read ({@link StoreKeys}), a user or password without the URL it is for, and a
 * value a setting does not accept are {@link StoreConfigurationException}s, so the runtime does
 * not start and no tool body runs, rather than a JVM silently working on its own embedded store.
 */
public final class RuntimeConfiguration {

    /** The system property prefix under which the agent passes its arguments. */
    public static final String AGENT_PREFIX = StoreKeys.AGENT_PREFIX;
    /** The system property prefix. */
    public static final String PROPERTY_PREFIX = StoreKeys.PROPERTY_PREFIX;
    /** The embedded default store's URL, used only when no store URL is configured at all. */
    public static final String DEFAULT_URL = StoreKeys.EMBEDDED_URL;

    private final Map<String, String> properties;
    private final Map<String, String> environment;
    /** The precedence of the sources, which the agent shares. */
    private final ConfigurationSources sources;

    /**
     * Reads from the given system properties and environment. The configuration is checked as a
     * whole when it is first read ({@link #stores()}, {@link #store}, {@link #flag}), so that
     * {@link #withOverrides} can still supply what the environment lacks (the command line's
     * {@code --store-url} beside {@code IDEMPOTENT_STORE_PASSWORD}).
     */
    public RuntimeConfiguration(Map<String, String> properties, Map<String, String> environment) {
        this.properties = Map.copyOf(properties);
        this.environment = Map.copyOf(environment);
        this.sources = new ConfigurationSources(this.properties, this.environment);
    }

    /**
     * Refuses the whole configuration when one key is unknown, a user or password has no URL, a
     * yes/no setting is neither, or {@code stores.loaded-later} names a store without a URL.
     */
    private void check() {
        refuseUnknownKeys();
        refuseSettingsWithoutUrl();
        for (String flag : StoreKeys.RUNTIME_FLAGS) {
            readFlag(flag);
        }
        for (String setting : StoreKeys.RUNTIME_NUMBERS) {
            readNumber(setting);
        }
        configuredStores();
    }

    /**
     * The stores this configuration gives a URL, and the switch for tools loaded later; the rules
     * that check them against the tools' stores are {@link ConfiguredStores}'.
     *
     * @throws StoreConfigurationException when {@code stores.loaded-later} names no store, a name
     *     no store can have, or a store without a URL
     */
    public ConfiguredStores configuredStores() {
        try {
            return ConfiguredStores.of(sources);
        } catch (IllegalArgumentException e) {
            throw new StoreConfigurationException(null, null, e.getMessage(), ConfiguredStores.ADVICE, null);
        }
    }

    /**
     * Refuses this configuration for a JVM whose tools use {@code toolStores} (the stores the
     * release-gate tables list, and those built in code): a store with a URL that no tool uses
     * (a misspelt name, which would leave the tools of the store meant on another one), and tools
     * of the default store that would run on the embedded file while other stores are configured.
     *
     * @throws StoreConfigurationException naming the store, where it was set, the stores the tools
     *     use and the nearest of them; or as {@link #stores()}
     */
    public void requireUsedBy(Collection<String> toolStores) {
        check();
        String problem = configuredStores().problemWith(toolStores);
        if (problem != null) {
            throw new StoreConfigurationException(null, null, problem, ConfiguredStores.ADVICE, null);
        }
    }

    private static final String KEY_ADVICE = "Every idempotent.* system property and IDEMPOTENT_* environment"
            + " variable must be a setting of the library (docs/configuration.md, \"Every setting\"): correct or remove it."
            + " The runtime does not start, so no tool call is claimed and no tool body runs";

    private void refuseUnknownKeys() {
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
    private void refuseSettingsWithoutUrl() {
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

    /** Reads from this JVM's system properties and environment. */
    public static RuntimeConfiguration fromSystem() {
        return new RuntimeConfiguration(ConfigurationSources.systemProperties(), System.getenv());
    }

    /**
     * This configuration with {@code settings} ({@code store.url}, {@code store.NAME.user} ...)
     * above everything else, as the agent's arguments are: for the operator's command line,
     * whose options override the environment it shares with the application.
     */
    public RuntimeConfiguration withOverrides(Map<String, String> settings) {
        Map<String, String> merged = new java.util.HashMap<>(properties);
        settings.forEach((key, value) -> merged.put(AGENT_PREFIX + key, value));
        return new RuntimeConfiguration(merged, environment);
    }

    /**
     * A yes/no setting that is not a store's ({@code telemetry.operation-keys}), from the same
     * sources in the same order as the stores' settings; false when absent.
     *
     * @throws StoreConfigurationException when the value is neither true nor false ({@link BooleanSetting}),
     *     or the configuration is refused as a whole (see {@link #stores()})
     */
    public boolean flag(String key) {
        check();
        return readFlag(key);
    }

    /**
     * A whole-number setting that is not a store's ({@code async.threads}, {@code async.max.pending}),
     * from the same sources in the same order as the stores' settings; empty when absent.
     *
     * @throws StoreConfigurationException when the value is not a whole number of at least 1, or
     *     the configuration is refused as a whole (see {@link #stores()})
     */
    public java.util.OptionalInt number(String key) {
        check();
        return readNumber(key);
    }

    /**
     * A duration setting that is not a store's ({@code health.timeout}), a positive ISO-8601
     * duration from the same sources in the same order as the stores' settings; empty when absent.
     *
     * @throws StoreConfigurationException when the value is not a positive duration, or the
     *     configuration is refused as a whole (see {@link #stores()})
     */
    public Optional<Duration> duration(String key) {
        check();
        String source = sources.source(key);
        String value = sources.value(source);
        return value == null ? Optional.empty() : Optional.of(parseDuration(source, value));
    }

    private java.util.OptionalInt readNumber(String key) {
        String source = sources.source(key);
        String value = sources.value(source);
        if (value == null) {
            return java.util.OptionalInt.empty();
        }
        return java.util.OptionalInt.of(parsePositive(source, value, key.endsWith("threads") ? "threads"
                : key.endsWith(".ms") ? "milliseconds" : "calls"));
    }

    private boolean readFlag(String key) {
        String source = sources.source(key);
        try {
            return BooleanSetting.parse(source, sources.value(source));
        } catch (IllegalArgumentException e) {
            throw new StoreConfigurationException(null, null, e.getMessage(), "Set it to true or false", null);
        }
    }

    /**
     * The settings of one store.
     *
     * @param connectTimeout how long a call waits for a connection ({@code store.connect.timeout})
     * @param socketTimeout how long one statement may wait for the server's reply before its
     *     connection is given up ({@code store.socket.timeout}; PostgreSQL's {@code socketTimeout})
     * @param answerLog the bound of the attempt log's answers held in memory and the wait at close
     *     ({@code store.answer.queue.size}, {@code store.close.timeout})
     */
    public record StoreSettings(String name, String url, String user, String password, SchemaMode schema,
            int poolSize, Duration connectTimeout, Duration socketTimeout, AnswerLogLimits answerLog) {

        /**
         * How long a statement may wait for the server unless configured: 10 s, a third of the
         * default lease (30 s). A server that stops answering without closing its sockets (a
         * network partition, a frozen host) would otherwise hold the statement until the kernel
         * gives the connection up, far past every lease. Every statement of a call, a heartbeat
         * and an operator's purge must fit in it.
         */
        public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(10);

        /** The settings with the default connect and socket timeouts for {@code url}, and the attempt log's default limits. */
        public StoreSettings(String name, String url, String user, String password, SchemaMode schema,
                int poolSize) {
            this(name, url, user, password, schema, poolSize, defaultConnectTimeout(url), DEFAULT_SOCKET_TIMEOUT);
        }

        /** The settings with the attempt log's default limits. */
        public StoreSettings(String name, String url, String user, String password, SchemaMode schema,
                int poolSize, Duration connectTimeout, Duration socketTimeout) {
            this(name, url, user, password, schema, poolSize, connectTimeout, socketTimeout, AnswerLogLimits.DEFAULT);
        }

        /** These settings with {@code schema} (a builder's schema mode for a store that set none). */
        public StoreSettings withSchema(SchemaMode schema) {
            return new StoreSettings(name, url, user, password, schema, poolSize, connectTimeout, socketTimeout,
                    answerLog);
        }

        /**
         * How long a claim waits for a connection unless configured: 5 s, but 30 s for an H2 file
         * database. Several JVMs opening one H2 file at once hand it over through its lock file
         * ({@code AUTO_SERVER}), which takes several seconds per JVM; a shorter wait would refuse
         * calls (fail closed) that a moment later would have been claimed.
         */
        public static Duration defaultConnectTimeout(String url) {
            return DataSources.isH2File(url) ? Duration.ofSeconds(30) : Duration.ofSeconds(5);
        }

        /** The URL with any inline credentials removed, for logs. */
        public String safeUrl() {
            return UrlCredentials.mask(url);
        }

        /**
         * The store's line in the runtime's log: name, URL without credentials, schema mode and,
         * for an H2 file, the absolute file that every JVM started in the same directory shares.
         */
        public String describe(SchemaMode effectiveSchema) {
            StringBuilder line = new StringBuilder("store " + name + ": " + safeUrl() + " (schema "
                    + effectiveSchema.name().toLowerCase(Locale.ROOT));
            Path file = h2File(url);
            if (file != null) {
                line.append("; H2 file ").append(file).append(".mv.db");
                if (!h2Path(url).startsWith("/") && !h2Path(url).startsWith("~")) {
                    line.append(", shared by every JVM started in ").append(Path.of("").toAbsolutePath());
                }
            }
            return line.append(')').toString();
        }

        @Override
        public String toString() {
            return describe(schema);
        }

        /** The absolute path (without {@code .mv.db}) of an H2 file database, or null for another URL. */
        public static Path h2File(String url) {
            String path = h2Path(url);
            if (path == null) {
                return null;
            }
            if (path.startsWith("~")) {
                return Path.of(System.getProperty("user.home") + path.substring(1)).normalize();
            }
            return Path.of(path).toAbsolutePath().normalize();
        }

        private static String h2Path(String url) {
            if (!DataSources.isH2File(url)) {
                return null;
            }
            String rest = url.substring("jdbc:h2:".length());
            if (rest.startsWith("file:")) {
                rest = rest.substring("file:".length());
            } else if (rest.matches("^[a-z]+:.*") && !rest.matches("^[A-Za-z]:[\\\\/].*")) {
                return null; // another H2 file system (zip:, split:, nio...): shown as the URL says
            }
            int semicolon = rest.indexOf(';');
            return semicolon < 0 ? rest : rest.substring(0, semicolon);
        }
    }

    /**
     * Every configured store: {@code default} first, then the named ones. The embedded default is
     * among them only when no store URL is configured at all: once one is, a tool of a store
     * without a URL is refused, never sent to the embedded file (a misspelt store name would
     * otherwise leave the tools of the store meant there).
     *
     * @throws StoreConfigurationException naming an unknown key and the nearest known one, a user
     *     or password without a URL, a yes/no setting that is neither, or a value a store's
     *     setting does not accept
     */
    public List<StoreSettings> stores() {
        check();
        ConfiguredStores configured = configuredStores();
        if (configured.embeddedDefault()) {
            return List.of(settings(StoreNames.DEFAULT));
        }
        List<StoreSettings> list = new ArrayList<>();
        for (String name : configured.urls().keySet()) {
            list.add(settings(name));
        }
        return list;
    }

    /**
     * The settings of the store named {@code name}; refused as {@link #stores()} says, and when
     * it has no URL (the default too, once any store URL is configured), naming the configured
     * stores and the nearest of them.
     */
    public StoreSettings store(String name) {
        String problem = StoreNames.problem(name);
        if (problem != null) {
            throw new StoreConfigurationException(null, null, problem);
        }
        check();
        String unconfigured = configuredStores().problemWith(name);
        if (unconfigured != null) {
            throw new StoreConfigurationException(null, null, unconfigured, ConfiguredStores.ADVICE, null);
        }
        return settings(name);
    }

    private StoreSettings settings(String name) {
        boolean isDefault = name.equals(StoreNames.DEFAULT);
        String url = value(name, "url", true).orElse(isDefault ? DEFAULT_URL : null);
        if (url == null) {
            throw new StoreConfigurationException(null, null, "store " + name + " has no url");
        }
        // H2 databases are created with user sa unless the URL says otherwise. No password means:
        // an H2 file store gets the generated secret kept beside it (DataSources).
        boolean embedded = url.startsWith("jdbc:h2:");
        String user = value(name, "user", true).orElse(embedded ? "sa" : null);
        String password = value(name, "password", false).orElse(null);
        SchemaMode schema = value(name, "schema", true).map(v -> SchemaMode.parse(source(name, "schema", true), v))
                .orElse(SchemaMode.CREATE);
        int poolSize = value(name, "pool.size", true)
                .map(v -> parsePositive(source(name, "pool.size", true), v, "connections")).orElse(8);
        Duration timeout = value(name, "connect.timeout", true)
                .map(v -> parseDuration(source(name, "connect.timeout", true), v))
                .orElse(StoreSettings.defaultConnectTimeout(url));
        Duration socketTimeout = value(name, "socket.timeout", true)
                .map(v -> parseDuration(source(name, "socket.timeout", true), v))
                .orElse(StoreSettings.DEFAULT_SOCKET_TIMEOUT);
        int queueSize = value(name, "answer.queue.size", true)
                .map(v -> parsePositive(source(name, "answer.queue.size", true), v, "answers"))
                .orElse(AnswerLogLimits.DEFAULT.queueSize());
        Duration closeTimeout = value(name, "close.timeout", true)
                .map(v -> parseDuration(source(name, "close.timeout", true), v))
                .orElse(AnswerLogLimits.DEFAULT.closeTimeout());
        int replayCache = value(name, "replay.cache.size", true)
                .map(v -> parseNonNegative(source(name, "replay.cache.size", true), v, "operations"))
                .orElse(AnswerLogLimits.DEFAULT_REPLAY_CACHE);
        return new StoreSettings(name, url, user, password, schema, poolSize, timeout, socketTimeout,
                new AnswerLogLimits(queueSize, closeTimeout).withReplayCache(replayCache));
    }

    /**
     * The system property or environment variable that sets {@code store.ATTRIBUTE} (default
     * store) or {@code store.NAME.ATTRIBUTE}, or null when the store takes the default: the name
     * an operator's message gives for a setting ({@code IDEMPOTENT_STORE_SOCKET_TIMEOUT}).
     */
    public String sourceOf(String store, String attribute) {
        return source(store, attribute, !attribute.equals("password"));
    }

    /** The value of {@code store.ATTRIBUTE} (default store) or {@code store.NAME.ATTRIBUTE}. */
    private Optional<String> value(String store, String attribute, boolean agentMayGiveIt) {
        return Optional.ofNullable(sources.value(source(store, attribute, agentMayGiveIt)));
    }

    /**
     * The system property or environment variable that sets {@code store.ATTRIBUTE} (default
     * store) or {@code store.NAME.ATTRIBUTE}, highest source first, or null: what a message names.
     */
    private String source(String store, String attribute, boolean agentMayGiveIt) {
        return sources.source(store, attribute, agentMayGiveIt);
    }

    private static int parsePositive(String source, String value, String unit) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(source, value, "a whole number of " + unit + ", at least 1", null);
    }

    /** A whole number, 0 or more (0 turns the setting's feature off). */
    private static int parseNonNegative(String source, String value, String unit) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(source, value, "a whole number of " + unit + ", 0 or more", null);
    }

    /**
     * A positive ISO-8601 duration: a zero or negative wait would refuse every call (or, at close,
     * give up every queued answer), and is a mistake.
     */
    private static Duration parseDuration(String source, String value) {
        Duration duration;
        try {
            duration = Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw invalid(source, value, "a positive ISO-8601 duration such as PT5S", e);
        }
        if (duration.isZero() || duration.isNegative()) {
            throw invalid(source, value, "a positive ISO-8601 duration such as PT5S", null);
        }
        return duration;
    }

    private static StoreConfigurationException invalid(String source, String value, String accepted, Throwable cause) {
        return new StoreConfigurationException(null, null, source + " must be " + accepted + ", was \"" + value + "\"",
                cause);
    }
}
