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
}
