package dev.langchain4j.invocation;

import java.util.Map;

/** The shape of LangChain4j's InvocationParameters that the processor relies on. */
public class InvocationParameters {
    private final Map<String, Object> map;

    public InvocationParameters(Map<String, Object> map) {
        this.map = map;
    }

    public Map<String, Object> asMap() {
        return map;
    }
}
