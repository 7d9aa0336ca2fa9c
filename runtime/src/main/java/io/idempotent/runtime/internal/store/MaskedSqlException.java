package io.idempotent.runtime.internal.store;

import io.idempotent.policy.internal.UrlCredentials;
import java.sql.SQLException;

/**
 * A driver's exception (or one of its causes) whose text quoted a password of the store's URL,
 * copied with that text masked ({@link UrlCredentials#maskIn}) before anything wraps, prints or
 * logs it. The copy keeps what the store's classification reads ({@link SqlStates}): the
 * SQLState, the vendor code and the driver's class name, and prints as the driver's exception
 * would, under that name.
 */
public final class MaskedSqlException extends SQLException {

    private static final long serialVersionUID = 1L;

    private final String driverClass;

    private MaskedSqlException(String message, String state, int code, String driverClass, Throwable cause) {
        super(message, state, code, cause);
        this.driverClass = driverClass;
    }

    /**
     * {@code e} itself when no text in it, its causes or its suppressed exceptions carries a
     * password of {@code url}; otherwise a copy of the whole chain with those texts masked.
     */
    public static SQLException masking(SQLException e, String url) {
        if (!quotesAPassword(e, url)) {
            return e;
        }
        return (SQLException) copy(e, url);
    }

    /** The class name of the driver's exception this one copies, as {@link SqlStates} reads it. */
    static String driverClassOf(SQLException e) {
        return e instanceof MaskedSqlException masked ? masked.driverClass : e.getClass().getName();
    }

    @Override
    public String toString() {
        return getLocalizedMessage() == null ? driverClass : driverClass + ": " + getLocalizedMessage();
    }

    private static boolean quotesAPassword(Throwable t, String url) {
        if (t == null) {
            return false;
        }
        String message = t.getMessage();
        if (message != null && !message.equals(UrlCredentials.maskIn(message, url))) {
            return true;
        }
        for (Throwable suppressed : t.getSuppressed()) {
            if (quotesAPassword(suppressed, url)) {
                return true;
            }
        }
        return t.getCause() != t && quotesAPassword(t.getCause(), url);
    }

    private static Throwable copy(Throwable t, String url) {
        Throwable cause = t.getCause() == null || t.getCause() == t ? null : copy(t.getCause(), url);
        String message = UrlCredentials.maskIn(t.getMessage(), url);
        Throwable copy;
        if (t instanceof KnownStoreProblem known) {
            copy = new KnownStoreProblem(message, known.code(), known.advice(), cause);
        } else if (t instanceof StoreChangingHands busy) {
            copy = new StoreChangingHands(message, busy.code(), cause);
        } else if (t instanceof SQLException sql) {
            copy = new MaskedSqlException(message, sql.getSQLState(), sql.getErrorCode(), driverClassOf(sql), cause);
        } else {
            copy = new MaskedSqlException(message, null, 0, t.getClass().getName(), cause);
        }
        copy.setStackTrace(t.getStackTrace());
        for (Throwable suppressed : t.getSuppressed()) {
            copy.addSuppressed(copy(suppressed, url));
        }
        return copy;
    }
}
