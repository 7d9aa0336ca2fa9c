package org.springframework.ai.chat.model;

import java.util.Map;

/** A ToolContext of a version without getContext(): the processor must say so, not generate code that cannot compile. */
public final class ToolContext {
    public Map<String, Object> entries() {
        return Map.of();
    }
}
