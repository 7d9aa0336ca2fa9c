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

    /**
     * What is wrong with {@code name} as a tool name, with the fix, or null when it is fine: empty
     * or only blanks, a control character (the store cannot hold a NUL, and a message would print
     * it raw), or longer than the store's column.
     */
    public static String problem(String name) {
        if (name == null || name.isBlank()) {
            return "a tool name must not be blank; give the tool a name = \"...\" with visible characters, or leave"
                    + " name out to use the method's name";
        }
        int control = name.chars().filter(Character::isISOControl).findFirst().orElse(-1);
        if (control >= 0) {
            return "the tool name contains the control character " + String.format("U+%04X", control) + ", which the"
                    + " store cannot hold and a message cannot show; give a name = \"...\" without it";
        }
        if (name.length() > MAX_LENGTH) {
            return "the tool name has " + name.length() + " characters, more than the " + MAX_LENGTH
                    + " the store's tool column takes; give the tool a shorter name = \"...\"";
        }
        return null;
    }

    /**
     * {@code name} as a message may show it: control characters as {@code \\uXXXX}, and at most
     * {@code limit} characters followed by {@code ...}.
     */
    public static String printable(String name, int limit) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length() && i < limit; i++) {
            char c = name.charAt(i);
            out.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return name.length() > limit ? out + "..." : out.toString();
    }
}
