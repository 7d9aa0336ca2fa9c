package io.idempotent.runtime.internal.store;

import java.sql.SQLException;

/** What an {@link SQLException}'s SQLState says about repeating the statement. */
final class SqlStates {

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
}
