package io.idempotent.policy.internal;

/**
 * Which names a tool may have: one home for the rule, read by the processor (a build error on the
 * tool) and by {@code ToolPolicy.Builder} (a policy built by hand). The limit is the size of the
 * store's {@code tool} column in both migrations; a runtime test keeps the two in step. Not for
 * users.
 */
public final class ToolNames {

    /** The most characters a tool name has: the store's {@code tool} column is {@code VARCHAR(200)}. */
    public static final int MAX_LENGTH = 200;

    private ToolNames() {
    }

    /** What is wrong with {@code name} as a tool name, or null when it is fine. */
    public static String problem(String name) {
        if (name == null || name.isBlank()) {
            return "a tool name must not be empty";
        }
        if (name.length() > MAX_LENGTH) {
            return "the tool name has " + name.length() + " characters, more than the " + MAX_LENGTH
                    + " the store's tool column takes";
        }
        return null;
    }
}
