package io.idempotent.runtime.internal.store;

/**
 * PostgreSQL: a change returns its rows with {@code RETURNING}, and the claim inserts or reads
 * the existing row in one statement. CockroachDB and YugabyteDB accept the same SQL.
 */
final class PostgresDialect implements Dialect {

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String nowPlusMillis() {
        return "(CURRENT_TIMESTAMP + CAST(? AS BIGINT) * INTERVAL '1 millisecond')";
    }

    @Override
    public String returning(String dml, String columns) {
        return dml + " RETURNING " + columns;
    }

    @Override
    public boolean claimsInOneStatement() {
        return true;
    }
}
