package io.idempotent.runtime.internal.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The few statements that differ between databases. Everything else in
 * {@link JdbcOperationStore} is standard SQL that both PostgreSQL and H2 run unchanged.
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

    /** The atomic claim: insert the row if the key is new, else return the existing row. */
    ClaimResult claim(Connection connection, ClaimRequest request, JdbcOperationStore.Rows rows) throws SQLException;

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
