package io.idempotent.runtime;

/** What the runtime does with the tables when a store is first used ({@code store.schema}). */
public enum SchemaMode {
    /** Create the tables if they do not exist ({@code create}; the default). */
    CREATE,
    /**
     * Only check that they exist ({@code validate}): for databases whose schema is managed by
     * Flyway or Liquibase with the migration shipped in {@code db/idempotent/}.
     */
    VALIDATE;

    /** Parses {@code create} or {@code validate} (any case, surrounding blanks ignored). */
    public static SchemaMode parse(String value) {
        return parse("store.schema", value);
    }

    /**
     * Parses {@code create} or {@code validate} (any case, surrounding blanks ignored), naming
     * {@code setting} (where the value was set, e.g. {@code IDEMPOTENT_STORE_MAIL_SCHEMA}) in the
     * message of a value that is neither; the runtime's configuration reads the setting this way.
     */
    public static SchemaMode parse(String setting, String value) {
        for (SchemaMode mode : values()) {
            if (mode.name().equalsIgnoreCase(value.trim())) {
                return mode;
            }
        }
        throw new StoreConfigurationException(null, null,
                setting + " must be create or validate, was \"" + value + "\"");
    }
}
