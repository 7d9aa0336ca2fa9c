package io.idempotent.runtime.internal.store;

/**
 * PostgreSQL: a change returns its rows with {@code RETURNING}, and the claim reads the existing
 * row or inserts it in one statement (a data-modifying {@code WITH}). The SQL keeps to what
 * CockroachDB and YugabyteDB document as supported (not run against them here); see
 * docs/runtime.md.
 */
final class PostgresDialect implements Dialect {

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String nowPlusMillis(String millis) {
        return "(CURRENT_TIMESTAMP + " + millis + " * INTERVAL '1 millisecond')";
    }

    @Override
    public String returning(String dml, String columns) {
        return dml + " RETURNING " + columns;
    }

    @Override
    public String deleted(String delete, String columns) {
        return delete + " RETURNING " + columns;
    }

    @Override
    public boolean dataModifyingWith() {
        return true;
    }

    @Override
    public String readOnlyQuery() {
        return "SELECT current_setting('transaction_read_only') = 'on'";
    }
}
