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

    /** Parses {@code create} or {@code validate} (any case). */
    public static SchemaMode parse(String value) {
        for (SchemaMode mode : values()) {
            if (mode.name().equalsIgnoreCase(value.trim())) {
                return mode;
            }
        }
        throw new StoreConfigurationException(null, null,
                "store.schema must be create or validate, was \"" + value + "\"");
    }
}
