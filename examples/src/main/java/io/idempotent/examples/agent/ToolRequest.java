package io.idempotent.examples.agent;

import java.util.List;

/** A tool call as the model emits it: a tool name and arguments. Never an operation key. */
public record ToolRequest(String tool, List<Object> arguments) {

    /** A request for {@code tool} with {@code arguments}. */
    public static ToolRequest of(String tool, Object... arguments) {
        return new ToolRequest(tool, List.of(arguments));
    }

    @Override
    public String toString() {
        return tool + arguments.toString().replace('[', '(').replace(']', ')');
    }
}
