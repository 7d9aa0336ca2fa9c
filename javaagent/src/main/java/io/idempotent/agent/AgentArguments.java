package io.idempotent.agent;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The agent's arguments, {@code key=value} pairs separated by commas. Store settings are handed to
 * the runtime as system properties {@code idempotent.agent.KEY}, which it ranks above every other
 * source. Passwords are refused: an agent argument shows in {@code ps} and in JVM diagnostics.
 */
final class AgentArguments {

    /** The system property prefix the runtime reads agent arguments from. */
    static final String PREFIX = "idempotent.agent.";

    private final Map<String, String> values;

    private AgentArguments(Map<String, String> values) {
        this.values = values;
    }

    static AgentArguments parse(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return new AgentArguments(values);
        }
        for (String pair : text.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("agent argument \"" + pair + "\" is not key=value");
            }
            String key = pair.substring(0, eq).strip();
            if (key.toLowerCase(Locale.ROOT).contains("password")) {
                throw new IllegalArgumentException("agent argument " + key + " refused: passwords are never read"
                        + " from agent arguments (they show in process listings); set IDEMPOTENT_STORE_PASSWORD in"
                        + " the environment or -Didempotent.store.password instead");
            }
            values.put(key, pair.substring(eq + 1).strip());
        }
        return new AgentArguments(values);
    }

    String get(String key) {
        return values.get(key);
    }

    boolean flag(String key) {
        return Boolean.parseBoolean(values.getOrDefault(key, "false"));
    }

    /** Hands the store settings to the runtime. */
    void publish() {
        values.forEach((key, value) -> {
            if (key.startsWith("store.")) {
                System.setProperty(PREFIX + key, value);
            }
        });
    }
}
