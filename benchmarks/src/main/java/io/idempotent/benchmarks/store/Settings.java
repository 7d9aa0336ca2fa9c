package io.idempotent.benchmarks.store;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** The benchmarks' knobs, read from system properties ({@code -Dbench.seconds=4}) with defaults. */
final class Settings {

    private Settings() {
    }

    static Duration seconds(String property, double defaultSeconds) {
        return Duration.ofMillis(Math.round(Double.parseDouble(System.getProperty(property,
                Double.toString(defaultSeconds))) * 1000));
    }

    static int integer(String property, int defaultValue) {
        return Integer.parseInt(System.getProperty(property, Integer.toString(defaultValue)).replace("_", ""));
    }

    static long number(String property, long defaultValue) {
        String value = System.getProperty(property, Long.toString(defaultValue)).replace("_", "");
        // 1e7 is the natural way to write ten million.
        return value.contains("e") || value.contains("E") ? (long) Double.parseDouble(value) : Long.parseLong(value);
    }

    static String text(String property, String defaultValue) {
        return System.getProperty(property, defaultValue);
    }

    static List<String> list(String property, String defaultValue) {
        return Arrays.stream(text(property, defaultValue).split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .toList();
    }
}
