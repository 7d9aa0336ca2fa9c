package io.idempotent.cli;

import io.idempotent.policy.internal.StoreKeys;
import io.idempotent.policy.internal.StoreNames;
import io.idempotent.policy.internal.UrlCredentials;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.internal.DataSources;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import io.idempotent.runtime.internal.RuntimeConfiguration.StoreSettings;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Which store a command works on, and how: the same settings, read by the same code
 * ({@link RuntimeConfiguration}), as the application's runtime (system properties
 * {@code idempotent.store.*}, environment {@code IDEMPOTENT_STORE_*}, the embedded default in
 * {@code ./.idempotent}), with the options on top. So {@code store.socket.timeout} bounds each
 * statement to a silent server and {@code store.connect.timeout} the wait for a connection, as in
 * the application, and a value the runtime refuses is refused here with the runtime's message;
 * only the schema mode is the command's own (reading never creates tables). A password is never
 * an option value, since arguments show in {@code ps}: it comes from the environment or a prompt,
 * and a {@code --store-url} that carries one is refused as the agent refuses it
 * ({@link UrlCredentials}).
 */
final class StoreOptions {

    /** What an operator does about a store that did not answer: not the tool caller's advice. */
    private static final String TRY_AGAIN = "Try again once the store answers; if it keeps failing, check its URL and"
            + " the database behind it";

    @Option(names = "--store", paramLabel = "NAME", defaultValue = "default",
            description = "The named store (store.NAME.url); default: ${DEFAULT-VALUE}.")
    String name;

    @Option(names = "--store-url", paramLabel = "JDBC_URL",
            description = "The store's JDBC URL (jdbc:postgresql:... or jdbc:h2:...); default: the configured one.")
    String url;

    @Option(names = "--store-user", paramLabel = "USER", description = "The database user; default: the configured one.")
    String user;

    @Option(names = "--ask-password", arity = "0", interactive = true,
            description = "Prompt for the database password (else IDEMPOTENT_STORE_PASSWORD or the configured one).")
    char[] password;

    /** Refuses a password inside {@code --store-url}, without repeating it. */
    void checkOptions() {
        String refusal = UrlCredentials.refusal("--store-url", url);
        if (refusal != null) {
            throw new UsageException(refusal + ", or give --ask-password");
        }
    }

    /**
     * Opens a runtime on the chosen store. Except for {@code schema create}, commands only
     * validate the schema: reading a store must never create one, and an embedded store that does
     * not exist is an error rather than a new empty file.
     */
    IdempotentRuntime open(SchemaMode schema) {
        StoreSettings settings = settings();
        String jdbcUrl = settings.url();
        if (schema != SchemaMode.CREATE && DataSources.isH2File(jdbcUrl)) {
            Path file = StoreSettings.h2File(jdbcUrl);
            if (file != null && !Files.exists(Path.of(file + ".mv.db"))) {
                throw new StoreConfigurationException(null, null, "there is no embedded store at " + file + ".mv.db"
                        + " (store " + name + ")", "Run the command where the application runs (its ./.idempotent),"
                        + " or give --store-url", null);
            }
            if (!jdbcUrl.toUpperCase(Locale.ROOT).contains("IFEXISTS")) {
                jdbcUrl = jdbcUrl + ";IFEXISTS=TRUE";
            }
        }
        String dbPassword = password != null ? new String(password) : settings.password();
        StoreSettings opened = new StoreSettings(name, jdbcUrl, settings.user(), dbPassword, schema,
                settings.poolSize(), settings.connectTimeout(), settings.socketTimeout(), settings.answerLog());
        return RuntimeAccess.store(IdempotentRuntime.builder().schema(schema), opened).build();
    }

    /**
     * {@code failure} as an operator reads it, on the command line ({@link ErrorLine}) and in the
     * console alike: the runtime's facts (what it tried, the store, its URL without credentials,
     * the SQLState) with an operator's advice instead of the tool caller's ("retry the call with
     * the same key"), and, when a PostgreSQL store sent no reply within its
     * {@code store.socket.timeout} (a frozen or partitioned server: the driver's read timed out),
     * that setting's value and where it was set.
     */
    StoreUnavailableException explained(StoreUnavailableException failure) {
        String timeout = readTimedOut(failure) ? socketTimeout() : null;
        if (timeout == null) {
            return new StoreUnavailableException(failure.tool(), failure.operationKey(), failure.happened(),
                    TRY_AGAIN, failure);
        }
        return new StoreUnavailableException(failure.tool(), failure.operationKey(), failure.happened() + "; the"
                + " server sent no reply within the socket timeout (" + timeout + ")", "Check that the database"
                + " server answers (a frozen host, a network partition, a failover in progress), then try again;"
                + " a statement that needs longer needs a longer store.socket.timeout", failure);
    }

    /**
     * The socket timeout of a PostgreSQL store and where it was set ("PT1S,
     * IDEMPOTENT_STORE_SOCKET_TIMEOUT"), or null for another store, which has no socket timeout.
     */
    private String socketTimeout() {
        RuntimeConfiguration configuration = configuration();
        StoreSettings settings = configuration.store(name);
        if (!settings.url().startsWith("jdbc:postgresql:")) {
            return null;
        }
        String source = configuration.sourceOf(name, "socket.timeout");
        // The driver reads the URL last: a socketTimeout there is the one that ran out.
        return settings.url().toLowerCase(Locale.ROOT).contains("sockettimeout=")
                ? "the socketTimeout in the store's URL"
                : settings.socketTimeout() + ", " + (source == null ? "the default of store.socket.timeout" : source);
    }

    private static boolean readTimedOut(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** The store's JDBC URL: the option, else the configured one. */
    String jdbcUrl() {
        return settings().url();
    }

    /** The store's name, as the runtime knows it. */
    String name() {
        return name;
    }

    /** The store's URL without credentials, for headings. */
    String describe() {
        return settings().safeUrl();
    }

    /**
     * The store's settings, read by the runtime's rules. When they are refused for want of a URL
     * and {@code --store-user} is one of the settings without it, the refusal names that option,
     * as the operator typed it, rather than the configuration key the option became.
     */
    private StoreSettings settings() {
        RuntimeConfiguration configuration = configuration();
        try {
            return configuration.store(name);
        } catch (StoreConfigurationException e) {
            String unconfigured = StoreNames.problem(name) == null && user == null
                    ? configuration.configuredStores().problemWith(name) : null;
            if (unconfigured != null) {
                // The runtime's words for the store, with an operator's advice instead of the application's.
                throw new StoreConfigurationException(null, null, unconfigured, "Give --store the name of a"
                        + " configured store, correct the variable's name, or give --store-url", null);
            }
            if (user != null && StoreNames.problem(name) == null && configuration.sourceOf(name, "url") == null) {
                String variable = StoreKeys.environmentVariable(StoreKeys.keys(name, "url").get(0));
                throw new UsageException("--store-user needs the URL of the database it is for: give --store-url or "
                        + variable + " too" + (name.equals(StoreNames.DEFAULT) ? " (without one, store " + name
                        + " is the embedded H2 store, which has no such user)" : " (without one, there is no store "
                        + name + ")"));
            }
            throw e;
        }
    }

    /** The application's configuration rules, with this command line's options on top. */
    private RuntimeConfiguration configuration() {
        Map<String, String> options = new HashMap<>();
        if (url != null) {
            options.put("store." + name + ".url", url);
        }
        if (user != null) {
            options.put("store." + name + ".user", user);
        }
        return RuntimeConfiguration.fromSystem().withOverrides(options);
    }
}
