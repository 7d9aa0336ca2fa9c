package org.springframework.ai.chat.model;

import java.util.Map;

/** The shape of Spring AI's ToolContext that the processor relies on (the real one is tested in integrations/spring-ai). */
public final class ToolContext {
    private final Map<String, Object> context;

    public ToolContext(Map<String, Object> context) {
        this.context = context;
    }

    public Map<String, Object> getContext() {
        return context;
    }
}
