package io.idempotent.runtime.internal;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Whether the application's mapper has Jackson's default typing on ({@code activateDefaultTyping},
 * the deprecated {@code enableDefaultTyping}). Such a mapper writes class names into stored results
 * and instantiates whatever class a stored result names when it reads it back: whoever can write to
 * the store (a database user, a restored backup) chooses the classes the application builds, the
 * classic Jackson deserialisation gadget. The runtime does not refuse the mapper (the application
 * chose it, and refusing would stop every tool), but says so once at start, with the fix.
 */
public final class DefaultTypingCheck {

    private DefaultTypingCheck() {
    }

    /** Whether {@code mapper} writes or reads class names for every value of a non-final type. */
    public static boolean hasDefaultTyping(ObjectMapper mapper) {
        // The base type is ignored by Jackson's own configs: one typer serves every type.
        return mapper.getSerializationConfig().getDefaultTyper(null) != null
                || mapper.getDeserializationConfig().getDefaultTyper(null) != null;
    }

    /** The one warning line: the risk and the fix. */
    public static String warning(ObjectMapper mapper) {
        return "idempotent runtime: the ObjectMapper given to IdempotentRuntime.Builder.objectMapper ("
                + mapper.getClass().getName() + ") has Jackson's default typing enabled, so stored results carry"
                + " class names and are read back into whatever class they name: anyone who can write to the"
                + " operation store can make this application instantiate classes of their choosing. Give the"
                + " runtime a mapper without default typing (mark polymorphic result types with"
                + " @JsonTypeInfo(use = Id.NAME) and @JsonSubTypes instead); see docs/security.md";
    }
}
