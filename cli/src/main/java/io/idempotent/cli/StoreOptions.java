package io.idempotent.cli;

import io.idempotent.policy.internal.UrlCredentials;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.internal.DataSources;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import io.idempotent.runtime.internal.RuntimeConfiguration.StoreSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Which store a command works on: the same settings as the agent's (system properties
 * {@code idempotent.store.url}, environment {@code IDEMPOTENT_STORE_URL},
 * {@code IDEMPOTENT_STORE_USER}, {@code IDEMPOTENT_STORE_PASSWORD}, the embedded default in
 * {@code ./.idempotent}), overridden by the options. A password is never an option value, since
 * arguments show in {@code ps}: it comes from the environment or a prompt, and a
 * {@code --store-url} that carries one is refused as the agent refuses it ({@link UrlCredentials}).
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
        return IdempotentRuntime.builder().schema(schema).store(name, jdbcUrl, settings.user(), dbPassword).build();
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

    /** The agent's configuration rules, with this command line's options on top. */
    private StoreSettings settings() {
        Map<String, String> options = new HashMap<>();
        if (url != null) {
            options.put("store." + name + ".url", url);
        }
        if (user != null) {
            options.put("store." + name + ".user", user);
        }
        return RuntimeConfiguration.fromSystem().withOverrides(options).store(name);
    }
}
