package io.idempotent.policy.internal;

import java.util.regex.Pattern;

/**
 * Which names a store may have. A name is part of configuration keys ({@code store.NAME.url}),
 * environment variables ({@code IDEMPOTENT_STORE_NAME_URL}, found again by lower-casing) and the
 * release-gate table, so it is a lower-case letter followed by lower-case letters, digits and
 * {@code _}: a dot would split the key, upper case and {@code -} would not survive the way back
 * from the environment. Not for users.
 */
public final class StoreNames {

    /** The store a tool uses unless it names another. */
    public static final String DEFAULT = "default";

    /** The longest name accepted (it becomes part of environment variable names). */
    public static final int MAX_LENGTH = 64;

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

    private StoreNames() {
    }

    /** What is wrong with {@code name} as a store name, or null when it is fine. */
    public static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "a store name must not be empty (\"" + DEFAULT + "\" is the default store)";
        }
        if (name.length() > MAX_LENGTH) {
            return "store name \"" + name + "\" is longer than " + MAX_LENGTH + " characters";
        }
        if (!NAME.matcher(name).matches()) {
            return "store name \"" + name + "\" cannot be configured: a store name is a lower-case letter followed"
                    + " by lower-case letters, digits or _ (it becomes part of store." + "NAME.url and"
                    + " IDEMPOTENT_STORE_NAME_URL), for example \"billing_eu\"";
        }
        return null;
    }

    /** Whether {@code name} is a store name the runtime can configure. */
    public static boolean isValid(String name) {
        return problem(name) == null;
    }

    /** {@code name}, or an {@link IllegalArgumentException} that says what is wrong with it. */
    public static String require(String name) {
        String problem = problem(name);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return name;
    }
}
