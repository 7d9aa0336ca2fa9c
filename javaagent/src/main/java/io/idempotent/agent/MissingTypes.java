package io.idempotent.agent;

import io.idempotent.policy.internal.BinaryNames;
import io.idempotent.policy.internal.FrameworkClasses;
import io.idempotent.policy.internal.ListedTool;
import java.util.List;

/**
 * The classes a tool method names that its class loader cannot find: an optional framework class
 * (Spring AI's {@code ToolContext}, LangChain4j's {@code InvocationParameters}, the MCP SDK's)
 * missing at run time makes the listed method unmatchable and its class unwrappable, and the
 * message must name that class and the dependency that brings it ({@link FrameworkClasses}).
 */
final class MissingTypes {

    /** How Byte Buddy says that a type named in a class cannot be found. */
    private static final String UNRESOLVED = "Cannot resolve type description for ";

    private MissingTypes() {
    }

    /** The first parameter type of {@code tool} that {@code loader} has no class file for, or null. */
    static String of(ListedTool tool, ClassLoader loader) {
        List<String> types;
        try {
            types = tool.parameterTypes();
        } catch (IllegalArgumentException e) {
            return null;
        }
        for (String type : types) {
            String element = type;
            while (element.endsWith("[]")) {
                element = element.substring(0, element.length() - 2);
            }
            // A primitive or a type variable has no dot, and no class file to look for.
            if (element.indexOf('.') > 0 && BinaryNames.of(element, loader) == null) {
                return element;
            }
        }
        return null;
    }

    /** A hint naming the class that {@code failure} (or a cause) says cannot be found, or "". */
    static String hint(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && message.startsWith(UNRESOLVED)) {
                return ". " + FrameworkClasses.missing(message.substring(UNRESOLVED.length()).strip());
            }
        }
        return "";
    }
}
