package io.idempotent.runtime.internal.store;

import java.util.List;

/**
 * The few pieces of SQL that differ between databases. It only builds text: every statement is
 * run by the parts behind {@link JdbcOperationStore}, the one entry point that writes the tables.
 */
public interface Dialect {

    /** A name for messages: {@code postgresql}, {@code h2}. */
    String name();

    /** The classpath resource of the schema's first migration (V1). */
    default String migrationResource() {
        return "db/idempotent/" + name() + "/V1__idempotent_tool_operations.sql";
    }

    /**
     * One migration of the schema: its classpath resource, and a table it creates, which marks it
     * applied. The first one's statements are all idempotent and run at every start in
     * {@code create} mode while no later migration is applied (they create what is missing).
     */
    record Migration(String resource, String mark) {
    }

    /** The schema's migrations, oldest first. */
    default List<Migration> migrations() {
        return List.of(new Migration(migrationResource(), "tool_operations"),
                new Migration("db/idempotent/" + name() + "/V2__idempotent_approvals.sql", StoreTables.APPROVALS),
                new Migration("db/idempotent/" + name() + "/V3__idempotent_outbox.sql", StoreTables.OUTBOX));
    }

    /**
     * Whether the store keeps {@code tool_operations_open}, the operations in progress or awaiting
     * reconciliation (PostgreSQL's V2): there, no index of {@code tool_operations} reads a column
     * that a completion changes, so completions are HOT updates, and the lookups by state read the
     * small table. H2, which has no HOT updates, finds them through its index on the status.
     */
    default boolean keepsOpenOperations() {
        return false;
    }

    /**
     * A statement that a marked migration's transaction runs first, so that stores starting at
     * once apply it one after the other (null: none).
     */
    default String migrationLock() {
        return null;
    }

    /**
     * Whether an outbox relay claims its rows in one statement with {@code FOR UPDATE SKIP LOCKED}
     * (PostgreSQL); otherwise (H2) it claims each row by a compare-and-set of its claim token.
     */
    default boolean skipsLockedRows() {
        return false;
    }

    /** An SQL expression for "the database's current time plus {@code millis} milliseconds". */
    String nowPlusMillis(String millis);

    /** An SQL expression for "the database's current time plus {@code ?} milliseconds". */
    default String nowPlusMillis() {
        return nowPlusMillis("CAST(? AS BIGINT)");
    }

    /**
     * A query that runs {@code dml} (one {@code INSERT} or {@code UPDATE} of one table) and
     * returns {@code columns} of each row it wrote, as the statement left them.
     */
    String returning(String dml, String columns);

    /** A query that runs {@code delete} and returns {@code columns} of each row it deleted. */
    String deleted(String delete, String columns);

    /**
     * Whether this is PostgreSQL's way of writing several tables in one statement: data-modifying
     * {@code WITH} clauses and arrays as parameters. Then the claim reads the row or inserts it
     * in one statement, answers are inserted as one statement per batch, and a purge deletes
     * records and their logs in one. Otherwise (H2) the claim inserts and reads the row when the
     * primary key refuses, answers go in a JDBC batch, and the purge runs in one transaction.
     */
    boolean dataModifyingWith();

    /**
     * A query whose one boolean says whether the session may not write (a read-only database or
     * file, {@code default_transaction_read_only}, a standby): checked when the schema is
     * prepared, so that a store that can never claim is refused at its first connection.
     */
    String readOnlyQuery();

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
