package io.idempotent.policy.internal;

import java.util.Locale;

/**
 * The one rule for a yes/no setting ({@code failOnMissingRuntime}, {@code telemetry.operation-keys}):
 * {@code true} or {@code false}, in any case. Anything else ({@code yes}, {@code 1}, {@code on},
 * an empty value) is refused rather than read as false, since a setting that asks for a check
 * must not be silently turned off by its spelling. Not for users.
 */
public final class BooleanSetting {

    private BooleanSetting() {
    }

    /**
     * {@code value} read as a boolean; {@code false} when it is null (the setting is absent).
     *
     * @throws IllegalArgumentException naming {@code key}, the value and the accepted values
     */
    public static boolean parse(String key, String value) {
        if (value == null) {
            return false;
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("true")) {
            return true;
        }
        if (v.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException(key + " must be true or false, was \"" + value + "\"");
    }
}
