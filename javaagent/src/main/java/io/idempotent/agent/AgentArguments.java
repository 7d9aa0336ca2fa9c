package io.idempotent.agent;

import io.idempotent.policy.internal.BooleanSetting;
import io.idempotent.policy.internal.StoreKeys;
import io.idempotent.policy.internal.UrlCredentials;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The agent's arguments: {@code key=value} pairs separated by commas. A value that holds a comma
 * (a PostgreSQL multi-host URL) is written in double quotes, which the value ends with:
 * {@code store.url="jdbc:postgresql://h1:5432,h2:5432/app?targetServerType=primary"}. Every key
 * must be known ({@link StoreKeys}), so a misspelt key is refused with the nearest known one and a
 * URL split at an unquoted comma is refused instead of silently cut short; a flag is
 * {@code true} or {@code false} ({@link BooleanSetting}), never read as false for any other value.
 * Store settings are handed to the runtime as system properties {@code idempotent.agent.KEY},
 * which it ranks above every other source. Passwords are refused, as a key or inside a URL: an
 * agent argument shows in {@code ps} and in JVM diagnostics.
 */
final class AgentArguments {

    /** The system property prefix the runtime reads agent arguments from. */
    static final String PREFIX = StoreKeys.AGENT_PREFIX;

    private static final String PASSWORD_ADVICE = UrlCredentials.ADVICE;

    private final Map<String, String> values;

    private AgentArguments(Map<String, String> values) {
        this.values = values;
    }

    /**
     * Parses the text after {@code -javaagent:...jar=}.
     *
     * @throws IllegalArgumentException naming the pair that is wrong (never echoing a password)
     */
    static AgentArguments parse(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return new AgentArguments(values);
        }
        int i = 0;
        while (i < text.length()) {
            int comma = text.indexOf(',', i);
            int eq = text.indexOf('=', i);
            if (eq < 0 || (comma >= 0 && comma < eq)) {
                int end = comma < 0 ? text.length() : comma;
                String pair = text.substring(i, end);
                if (!pair.isBlank()) {
                    throw new IllegalArgumentException("agent argument \"" + shown(pair.strip()) + "\" is not key=value"
                            + unquotedCommaHint());
                }
                i = end + 1;
                continue;
            }
            String key = text.substring(i, eq).strip();
            int start = eq + 1;
            while (start < text.length() && text.charAt(start) == ' ') {
                start++;
            }
            String value;
            int next;
            if (start < text.length() && text.charAt(start) == '"') {
                int close = text.indexOf('"', start + 1);
                if (close < 0) {
                    throw new IllegalArgumentException("agent argument " + key + ": the quoted value has no closing"
                            + " quote");
                }
                value = text.substring(start + 1, close);
                next = close + 1;
                while (next < text.length() && text.charAt(next) == ' ') {
                    next++;
                }
                if (next < text.length() && text.charAt(next) != ',') {
                    throw new IllegalArgumentException("agent argument " + key + ": a quoted value must be followed"
                            + " by a comma or the end");
                }
            } else {
                next = comma < 0 ? text.length() : comma;
                value = text.substring(start, next).strip();
            }
            values.put(check(key, value), value);
            i = next + 1;
        }
        return new AgentArguments(values);
    }

    /** Refuses a password, a credential in a URL or an unknown key; returns the key. */
    private static String check(String key, String value) {
        if (key.toLowerCase(Locale.ROOT).contains("password")) {
            throw new IllegalArgumentException("agent argument " + key + " refused: " + PASSWORD_ADVICE);
        }
        if (StoreKeys.AGENT_FLAGS.contains(key)) {
            BooleanSetting.parse("agent argument " + key, value);
            return key;
        }
        String unknown = StoreKeys.agentArgumentProblem(key);
        if (unknown != null) {
            throw new IllegalArgumentException(shown(unknown) + " (known: store.url, store.user, store.schema,"
                    + " store.pool.size, store.connect.timeout, store.socket.timeout, the same as store.NAME.KEY for a named store, "
                    + String.join(", ", StoreKeys.RUNTIME_SETTINGS) + " and " + String.join(", ", StoreKeys.AGENT_FLAGS)
                    + ")" + unquotedCommaHint());
        }
        if (StoreKeys.RUNTIME_SETTINGS.contains(key)) {
            return key;
        }
        StoreKeys.Key parsed = StoreKeys.parse(key);
        String refusal = parsed.attribute().equals("url") ? UrlCredentials.refusal("agent argument " + key, value)
                : null;
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        return key;
    }

    /** Text of an argument for a message: whatever stands before an {@code @} may be a password. */
    private static String shown(String text) {
        return text.replaceAll("[^/,]*@", "***@");
    }

    private static String unquotedCommaHint() {
        return "; if it is the rest of a value that holds a comma (a multi-host URL), quote the value:"
                + " store.url=\"jdbc:postgresql://h1:5432,h2:5432/app\"";
    }

    String get(String key) {
        return values.get(key);
    }

    /** A flag's value, checked when it was parsed; false when absent. */
    boolean flag(String key) {
        return BooleanSetting.parse("agent argument " + key, values.get(key));
    }

    /** Hands the store settings and the runtime's other settings to the runtime. */
    void publish() {
        values.forEach((key, value) -> {
            if (key.startsWith("store.") || StoreKeys.RUNTIME_SETTINGS.contains(key)) {
                System.setProperty(PREFIX + key, value);
            }
        });
    }
}
