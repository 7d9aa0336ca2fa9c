package io.idempotent.runtime.internal.store;

import java.sql.SQLException;
import java.util.Set;

/** What an {@link SQLException}'s SQLState or error code says about repeating the statement. */
public final class SqlStates {

    /** H2's ERROR_OPENING_DATABASE_1, DATABASE_ALREADY_OPEN_1 and CONNECTION_BROKEN_1. */
    private static final Set<Integer> H2_HANDOVER_ERRORS = Set.of(8000, 90020, 90067);

    private SqlStates() {
    }

    /**
     * A data exception (class 22: a value too long, out of range, malformed) or an integrity
     * constraint violation (class 23): the same statement with the same values fails again, so
     * the store is not "unavailable" and a caller must not be told to retry.
     */
    static boolean isPermanent(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("22") || sql.getSQLState().startsWith("23"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A syntax error or access rule violation (class 42: an undefined table or column, among
     * others): the schema is missing or not the one the store needs. Anything else (a lost
     * connection, class 08; H2 handing its file over, 90020) says nothing about the schema.
     */
    static boolean isSchemaMismatch(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("42")) {
                return true;
            }
        }
        return false;
    }

    /**
     * An H2 file database that several JVMs share with {@code AUTO_SERVER} is changing hands: the
     * JVM that served it went away, or several open it at once, and H2 refuses the ones that come
     * too early ("Lock file recently modified", "Database may be already in use", a broken
     * connection to the JVM that served it). A moment later the same work succeeds.
     */
    public static boolean isH2Handover(SQLException e) {
        return H2_HANDOVER_ERRORS.contains(e.getErrorCode());
    }
}
