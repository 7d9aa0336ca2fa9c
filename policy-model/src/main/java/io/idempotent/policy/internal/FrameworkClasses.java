package io.idempotent.policy.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The optional framework classes a tool method may take (Spring AI's {@code ToolContext},
 * LangChain4j's {@code InvocationParameters}, the MCP SDK's exchange and context types), by the
 * dependency that brings them, so that a message about one missing at run time names what to add.
 * Not for users.
 */
public final class FrameworkClasses {

    /** By package prefix, most specific first: the dependency that brings the classes. */
    private static final Map<String, String> DEPENDENCIES = new LinkedHashMap<>();

    static {
        DEPENDENCIES.put("org.springframework.ai.mcp.annotation.",
                "Spring AI's MCP annotations (org.springframework.ai:spring-ai-mcp-annotations)");
        DEPENDENCIES.put("org.springframework.ai.", "Spring AI (org.springframework.ai:spring-ai-model)");
        DEPENDENCIES.put("dev.langchain4j.", "LangChain4j (dev.langchain4j:langchain4j-core, which"
                + " dev.langchain4j:langchain4j brings)");
        DEPENDENCIES.put("io.modelcontextprotocol.", "the MCP Java SDK (io.modelcontextprotocol.sdk:mcp-core, which"
                + " io.modelcontextprotocol.sdk:mcp brings)");
    }

    private FrameworkClasses() {
    }

    /** The dependency that brings {@code className} (canonical or binary name): a framework's, or a general hint. */
    public static String dependencyOf(String className) {
        for (Map.Entry<String, String> entry : DEPENDENCIES.entrySet()) {
            if (className.startsWith(entry.getKey())) {
                return entry.getValue();
            }
        }
        return "the library that provides it";
    }

    /**
     * What to say of a tool whose parameter type {@code className} is not on the class path: the
     * class, and the dependency to add to the application's run-time dependencies.
     */
    public static String missing(String className) {
        return className + " is not on the class path at run time: add " + dependencyOf(className)
                + " to the application's run-time dependencies (not provided, test or optional)";
    }
}
