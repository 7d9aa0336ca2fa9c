package io.idempotent.cli;

import io.idempotent.policy.internal.UrlCredentials;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;

/**
 * The one line an error shows on standard error: the exception's message and, for a store that
 * cannot be used, the first cause the runtime's message does not already say (the driver's
 * "connection refused", "password authentication failed"), never a stack trace, an SQL
 * statement or a password, and with every control character {@link TerminalText escaped}.
 */
final class ErrorLine {

    private static final int MAX_CAUSE = 200;

    private ErrorLine() {
    }

    static String of(Throwable e) {
        // The runtime's own message is never cut: it ends with its fix.
        String line = clean(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        if (e instanceof StoreUnavailableException || e instanceof StoreConfigurationException) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            if (root != e && root.getMessage() != null) {
                String cause = clean(root.getMessage());
                if (!cause.isEmpty() && !line.contains(cause)) {
                    // Its own bound, so that a long message never cuts the driver's cause off.
                    line = line + " (cause: " + shorten(cause, MAX_CAUSE) + ")";
                }
            }
        }
        return line;
    }

    private static String shorten(String text, int max) {
        return text.length() > max ? text.substring(0, max) + "..." : text;
    }

    /** One line, without H2's statement text and with any URL's password masked. */
    private static String clean(String message) {
        String text = message;
        int sql = text.indexOf("SQL statement:");
        if (sql >= 0) {
            text = text.substring(0, sql);
        }
        text = text.replaceAll("\\s+", " ").strip();
        if (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1);
        }
        return TerminalText.escape(UrlCredentials.mask(text));
    }
}
