package io.idempotent.runtime.internal.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Whether the store's connections use only unnamed statements (the PostgreSQL driver's
 * {@code prepareThreshold=0}), which a transaction pooler passes safely. Named server-side
 * statements are much cheaper for the server (measured by the benchmarks' {@code
 * PreparedStatementCost}: about a third of the server's CPU per call), so the store keeps the
 * driver's default until it finds a transaction pooler when it starts ({@link TransactionPooler});
 * then, on the connections it opened from its own URL (where the URL does not set
 * {@code prepareThreshold} itself), it turns them off on every connection it borrows.
 */
final class UnnamedStatements {

    /** Whether the store may choose (its own URL, without a prepareThreshold of its own). */
    private volatile boolean mayChoose;
    private volatile boolean on;

    /** The store opened its connections from a URL that leaves {@code prepareThreshold} to it. */
    void allowChoosing() {
        mayChoose = true;
    }

    boolean mayChoose() {
        return mayChoose;
    }

    /** From now on every connection borrowed uses unnamed statements; {@code c} at once. */
    void turnOn(Connection c) throws SQLException {
        on = true;
        apply(c);
    }

    /** Sets {@code c}'s threshold to 0 when unnamed statements are on (a field of the driver's connection). */
    void apply(Connection c) throws SQLException {
        if (on) {
            c.unwrap(org.postgresql.PGConnection.class).setPrepareThreshold(0);
        }
    }
}
