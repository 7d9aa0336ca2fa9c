package io.idempotent.runtime.binding;

import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.Step;

/**
 * Helpers that generated bindings call while rendering an operation key. A key part that is
 * missing fails the call before anything is claimed.
 */
public final class KeyParts {

    private KeyParts() {
    }

    /**
     * The text of one placeholder's value.
     *
     * @param tool the tool's name, for the message
     * @param placeholder the placeholder as written in the template, for example {@code invoice.id}
     * @param value the value read from the arguments
     * @throws MissingOperationKeyException if the value is null
     */
    public static String text(String tool, String placeholder, Object value) {
        if (value == null) {
            throw new MissingOperationKeyException(tool, "{" + placeholder + "} is null");
        }
        return String.valueOf(value);
    }

    /**
     * Checks an intermediate value of an accessor chain such as {@code {invoice.customer.id}}
     * before the next accessor is called on it, and returns it.
     *
     * @throws MissingOperationKeyException if the value is null
     */
    public static <T> T notNull(String tool, String path, T value) {
        if (value == null) {
            throw new MissingOperationKeyException(tool, "{" + path + "} is null");
        }
        return value;
    }

    /**
     * The current step key, for {@code {step}}.
     *
     * @throws MissingOperationKeyException if no {@link Step} is set on this thread
     */
    public static String step(String tool) {
        return Step.currentKey().orElseThrow(() -> new MissingOperationKeyException(tool,
                "the key needs {step}, but no step is set on this thread; the workflow layer must call"
                        + " Step.begin(\"...\") around the call (and carry it to other threads with Step.wrap)"));
    }
}
