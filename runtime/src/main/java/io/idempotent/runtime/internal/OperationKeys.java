package io.idempotent.runtime.internal;

/** The rules every rendered operation key (and step key) must satisfy. */
public final class OperationKeys {

    /** The longest key the store accepts, in characters (the size of its column). */
    public static final int MAX_LENGTH = StoreColumns.maxLength("operation_key");

    private OperationKeys() {
    }

    /** What is wrong with {@code key}, or null when it is acceptable. */
    public static String problem(String key) {
        if (key.isBlank()) {
            return "is blank";
        }
        if (key.length() > MAX_LENGTH) {
            // No part of the key is quoted: a key is built from arguments (an invoice, a card, an email).
            return "has " + key.length() + " characters, more than the " + MAX_LENGTH + " allowed";
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isISOControl(c)) {
                return "contains the control character U+" + String.format("%04X", (int) c) + " at index " + i;
            }
        }
        return null;
    }
}
