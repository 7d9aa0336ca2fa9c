package io.idempotent.runtime.internal;

import io.idempotent.runtime.StoreConfigurationException;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * The parsing of one setting's text into its value: a whole number of at least 1, one of 0 or
 * more, a positive ISO-8601 duration. A value that is none of these is a
 * {@link StoreConfigurationException} naming the system property or environment variable that set
 * it, what it accepts and what it was. Apart from {@link RuntimeConfiguration}, which decides where
 * a setting comes from and what it defaults to, because what a value may be is the same rule for
 * every setting.
 */
final class SettingValues {

    private SettingValues() {
    }

    static int parsePositive(String source, String value, String unit) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(source, value, "a whole number of " + unit + ", at least 1", null);
    }

    /** A whole number, 0 or more (0 turns the setting's feature off). */
    static int parseNonNegative(String source, String value, String unit) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(source, value, "a whole number of " + unit + ", 0 or more", null);
    }

    /**
     * A positive ISO-8601 duration: a zero or negative wait would refuse every call (or, at close,
     * give up every queued answer), and is a mistake.
     */
    static Duration parseDuration(String source, String value) {
        Duration duration;
        try {
            duration = Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw invalid(source, value, "a positive ISO-8601 duration such as PT5S", e);
        }
        if (duration.isZero() || duration.isNegative()) {
            throw invalid(source, value, "a positive ISO-8601 duration such as PT5S", null);
        }
        return duration;
    }

    private static StoreConfigurationException invalid(String source, String value, String accepted, Throwable cause) {
        return new StoreConfigurationException(null, null, source + " must be " + accepted + ", was \"" + value + "\"",
                cause);
    }
}
