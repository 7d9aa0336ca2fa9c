package io.idempotent.cli;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** The fields of a query string or an {@code application/x-www-form-urlencoded} body. */
final class FormData {

    private final Map<String, String> fields;

    private FormData(Map<String, String> fields) {
        this.fields = fields;
    }

    static FormData parse(String encoded) {
        Map<String, String> fields = new HashMap<>();
        if (encoded != null && !encoded.isEmpty()) {
            for (String pair : encoded.split("&")) {
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                // A repeated field is a forged or broken form: keep the first, never merge.
                fields.putIfAbsent(name, value);
            }
        }
        return new FormData(fields);
    }

    /** The field, or null when absent. */
    String get(String name) {
        return fields.get(name);
    }

    /** The field, or {@code ""} when absent. */
    String text(String name) {
        String value = fields.get(name);
        return value == null ? "" : value;
    }
}
