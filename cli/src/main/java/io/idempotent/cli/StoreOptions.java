package io.idempotent.cli;

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
     * {@code failure} with the setting that ended it named, when a PostgreSQL store sent no reply
     * within its {@code store.socket.timeout} (a frozen or partitioned server: the driver's read
     * timed out); else {@code failure} itself.
     */
    RuntimeException explained(StoreUnavailableException failure) {
        if (!readTimedOut(failure)) {
            return failure;
        }
        RuntimeConfiguration configuration = configuration();
        StoreSettings settings = configuration.store(name);
        if (!settings.url().startsWith("jdbc:postgresql:")) {
            return failure;
        }
        String source = configuration.sourceOf(name, "socket.timeout");
        // The driver reads the URL last: a socketTimeout there is the one that ran out.
        String setting = settings.url().toLowerCase(Locale.ROOT).contains("sockettimeout=")
                ? "the socketTimeout in the store's URL"
                : settings.socketTimeout() + ", " + (source == null ? "the default of store.socket.timeout" : source);
        return new StoreUnavailableException(null, null, failure.happened() + "; the server sent no reply within"
                + " the socket timeout (" + setting + ")", "Check that the database server answers (a frozen host, a"
                + " network partition, a failover in progress), then run the command again; a statement that needs"
                + " longer needs a longer store.socket.timeout", failure);
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

    private StoreSettings settings() {
        return configuration().store(name);
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
