package io.idempotent.runtime.binding;

import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.internal.OperationKeys;
import java.util.Map;
import java.util.Optional;

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

    /**
     * For {@code {step}} on a method with a framework context parameter: the context's
     * {@link Step#CONTEXT_KEY} entry first, then the thread's current {@link Step}. When both are
     * present and differ, nothing can tell which decision the call belongs to, so it is refused.
     *
     * @param tool the tool's name, for the message
     * @param contextParameter the context parameter's name, for the message
     * @param entry the context's {@code CONTEXT_KEY} entry, or null when it has none
     * @throws MissingOperationKeyException if neither gives a step, the entry is not a valid step
     *     key, or the two differ
     */
    public static String step(String tool, String contextParameter, Object entry) {
        Optional<String> thread = Step.currentKey();
        if (entry == null) {
            return thread.orElseThrow(() -> new MissingOperationKeyException(tool, "the key needs {step}, but the"
                    + " context parameter " + contextParameter + " has no entry " + Step.CONTEXT_KEY + " and no step"
                    + " is set on this thread; the workflow passes it in the framework's context"
                    + " (Step.asContext(\"...\")) or calls Step.begin(\"...\") around the call"));
        }
        if (!(entry instanceof CharSequence)) {
            throw new MissingOperationKeyException(tool, "the entry " + Step.CONTEXT_KEY + " of the context parameter "
                    + contextParameter + " is a " + entry.getClass().getName() + ", not a string step key");
        }
        String fromContext = entry.toString();
        String problem = OperationKeys.problem(fromContext);
        if (problem != null) {
            throw new MissingOperationKeyException(tool, "the entry " + Step.CONTEXT_KEY + " of the context parameter "
                    + contextParameter + " is not a valid step key: it " + problem);
        }
        if (thread.isPresent() && !thread.get().equals(fromContext)) {
            throw new MissingOperationKeyException(tool, "the context parameter " + contextParameter + " carries step \""
                    + fromContext + "\" but the thread's Step is \"" + thread.get() + "\"; the call is refused rather"
                    + " than guess which decision it belongs to");
        }
        return fromContext;
    }

    /**
     * The text of {@code {context.NAME}}: entry NAME of the method's context parameter.
     *
     * @param tool the tool's name, for the message
     * @param placeholder the placeholder as written, for example {@code context.approvalId}
     * @param contextParameter the context parameter's name, for the message
     * @param entry the entry's value, or null when the context has no such entry
     * @throws MissingOperationKeyException if the entry is missing or null
     */
    public static String context(String tool, String placeholder, String contextParameter, Object entry) {
        if (entry == null) {
            throw new MissingOperationKeyException(tool, "{" + placeholder + "}: the context parameter "
                    + contextParameter + " has no entry " + placeholder.substring(placeholder.indexOf('.') + 1));
        }
        return String.valueOf(entry);
    }

    /** Entry {@code name} of a framework context's map, or null when the map or the entry is absent. */
    public static Object entry(Map<String, ?> entries, String name) {
        return entries == null ? null : entries.get(name);
    }
}
