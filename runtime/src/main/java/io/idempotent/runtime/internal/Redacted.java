package io.idempotent.runtime.internal;

/**
 * How a type that holds a payload, a result, an error or a reconciler's words shows them in its
 * {@code toString()}: by size or type, never by value, because a {@code toString()} ends up in log
 * lines and exception messages.
 */
public final class Redacted {

    private Redacted() {
    }

    /** {@code "none"}, or the text's length in characters. */
    public static String size(String text) {
        return text == null ? "none" : text.length() + " characters";
    }

    /** {@code "none"}, or the value's class. */
    public static String type(Object value) {
        return value == null ? "none" : "a " + value.getClass().getName();
    }
}
