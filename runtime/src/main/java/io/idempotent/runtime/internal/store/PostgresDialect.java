package io.idempotent.runtime.internal.store;

import java.util.List;

/**
 * PostgreSQL: a change returns its rows with {@code RETURNING}, and the claim reads the existing
 * row or inserts it in one statement (a data-modifying {@code WITH}). The SQL keeps to what
 * CockroachDB and YugabyteDB document as supported (not run against them here); see
 * docs/store.md and docs/distributed-sql.md.
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
    public List<Migration> migrations() {
        return List.of(new Migration(migrationResource(), "tool_operations"),
                new Migration("db/idempotent/postgresql/V2__idempotent_open_operations.sql", "tool_operations_open"),
                new Migration("db/idempotent/postgresql/V3__idempotent_approvals.sql", StoreTables.APPROVALS),
                new Migration("db/idempotent/postgresql/V4__idempotent_outbox.sql", StoreTables.OUTBOX));
    }

    @Override
    public boolean skipsLockedRows() {
        return true;
    }

    @Override
    public boolean keepsOpenOperations() {
        return true;
    }

    @Override
    public String migrationLock() {
        // A transaction-scoped advisory lock: released by the commit, held by no one after a crash.
        return "SELECT pg_advisory_xact_lock(7305841526931245)";
    }

    @Override
    public String readOnlyQuery() {
        return "SELECT current_setting('transaction_read_only') = 'on'";
    }
}
