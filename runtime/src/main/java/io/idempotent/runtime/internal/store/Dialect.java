package io.idempotent.runtime.internal.store;

/**
 * The few pieces of SQL that differ between databases. It only builds text: every statement is
 * run by {@link JdbcOperationStore}, the one class that writes the tables.
 */
public interface Dialect {

    /** A name for messages: {@code postgresql}, {@code h2}. */
    String name();

    /** The classpath resource of the schema migration. */
    default String migrationResource() {
        return "db/idempotent/" + name() + "/V1__idempotent_tool_operations.sql";
    }

    /** An SQL expression for "the database's current time plus {@code ?} milliseconds". */
    String nowPlusMillis();

    /**
     * A query that runs {@code dml} (one {@code INSERT} or {@code UPDATE} of one table) and
     * returns {@code columns} of each row it wrote, as the statement left them.
     */
    String returning(String dml, String columns);

    /**
     * Whether the claim runs as one statement that inserts the row if the key is new and else
     * reads the existing one ({@code INSERT ... ON CONFLICT DO NOTHING} in a data-modifying
     * {@code WITH}); otherwise the store inserts, and reads the row when the primary key refuses.
     */
    boolean claimsInOneStatement();

    /** The dialect for a JDBC URL or database product name. */
    static Dialect detect(String urlOrProduct) {
        String s = urlOrProduct.toLowerCase(java.util.Locale.ROOT);
        if (s.startsWith("jdbc:postgresql:") || s.contains("postgresql")) {
            return new PostgresDialect();
        }
        if (s.startsWith("jdbc:h2:") || s.equals("h2")) {
            return new H2Dialect();
        }
        return null;
    }
}
