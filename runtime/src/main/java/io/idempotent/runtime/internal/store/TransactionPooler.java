package io.idempotent.runtime.internal.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Whether a PostgreSQL store's connections reach the server through a transaction pooler
 * (PgBouncer with {@code pool_mode=transaction}, or one like it), asked when the store starts.
 * Such a pooler gives a client a server session for one transaction at a time, so a named
 * server-side statement that the JDBC driver prepared in one transaction (after
 * {@code prepareThreshold} executions, 5 by default) may be found, or missed, by another client's
 * transaction on the same server session: "prepared statement S_1 already exists" (42P05), "does
 * not exist" (26000), a bind with the wrong number of parameters (08P01), or, worst, another
 * statement of the same name and shape run in its place. Unnamed statements
 * ({@code prepareThreshold=0}, which the store then sets on the connections it opened from its
 * own URL unless the URL sets it: {@link UnnamedStatements}) pass such a pooler safely; the
 * library keeps no other session state. Elsewhere the driver's named statements stay, being far
 * cheaper for the server.
 *
 * <p>The test: a session of its own is never handed to another connection, so when two of the
 * store's connections, one after the other, each in a transaction of its own, read the same
 * {@code pg_backend_pid()}, or one connection reads two, a pooler sits between them. A pooler
 * hands an idle server session to the next client that asks (PgBouncer does, most recently used
 * first), so the second connection gets the first one's. With one connection only (the
 * application's data source), only a changing process id is seen.
 */
final class TransactionPooler {

    private static final int ROUNDS = 3;

    private TransactionPooler() {
    }

    /**
     * Whether {@code c} (and {@code other}, a second connection of the same store, or null) read
     * server process ids that only a transaction pooler explains.
     */
    static boolean between(Connection c, Connection other) throws SQLException {
        try {
            return pidsShared(c, other);
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("42")) {
                return false; // no pg_backend_pid(): a PostgreSQL-compatible database this test does not know
            }
            throw e;
        }
    }

    private static boolean pidsShared(Connection c, Connection other) throws SQLException {
        for (int round = 0; round < ROUNDS; round++) {
            long first = backendPid(c);
            if (other != null && backendPid(other) == first) {
                return true;
            }
            if (backendPid(c) != first) {
                return true;
            }
        }
        return false;
    }

    /**
     * Refuses a store whose connections use named server-side statements through a transaction
     * pooler; returns the line to log when it runs safely through one, or null when none is there.
     */
    static String requireSafe(Connection c, Connection other, UnnamedStatements unnamed) throws SQLException {
        if (!between(c, other)) {
            return null;
        }
        int threshold = prepareThreshold(c);
        String pooler = "the store reaches PostgreSQL through a transaction pooler (its connections share server"
                + " sessions between transactions, as PgBouncer's pool_mode=transaction does)";
        if (threshold == 0) {
            return pooler + "; its statements are unnamed (prepareThreshold=0), which such a pooler passes safely";
        }
        if (unnamed.mayChoose() && threshold != Integer.MIN_VALUE) {
            unnamed.turnOn(c);
            return pooler + "; it uses unnamed statements on its connections (prepareThreshold=0), which such a pooler"
                    + " passes safely, where named server-side ones would be handed to other clients";
        }
        throw new KnownStoreProblem("the store reaches PostgreSQL through a transaction pooler (its connections"
                + " share server sessions between transactions, as PgBouncer's pool_mode=transaction does), and its"
                + " connections use named server-side statements (prepareThreshold=" + (threshold == Integer.MIN_VALUE
                ? "unknown" : Integer.toString(threshold)) + "), which such a pooler hands to other clients: their"
                + " names collide (SQLState 42P05, 26000, 08P01) or run another statement", null, "Remove"
                + " prepareThreshold from store.url (the store then uses prepareThreshold=0 behind such a pooler), or"
                + " set prepareThreshold=0 on the application's data source; or run PgBouncer with pool_mode=session;"
                + " see docs/production-postgresql.md", null);
    }

    private static long backendPid(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * The driver's {@code prepareThreshold} for {@code c}'s statements; {@link Integer#MIN_VALUE}
     * when the connection is not the PostgreSQL driver's (or the driver cannot be seen from
     * here), which counts as unsafe.
     */
    private static int prepareThreshold(Connection c) {
        try {
            if (c.isWrapperFor(org.postgresql.PGConnection.class)) {
                return c.unwrap(org.postgresql.PGConnection.class).getPrepareThreshold();
            }
        } catch (SQLException | LinkageError e) {
            // not the PostgreSQL driver's connection, or not visible to the runtime's class loader
        }
        return Integer.MIN_VALUE;
    }
}
