package io.idempotent.processor;

import io.idempotent.policy.internal.StoreNames;
import io.idempotent.policy.internal.ToolNames;
import javax.lang.model.element.ExecutableElement;

/**
 * The names: the store's can be configured ({@code [IdemStoreName]}) and the tool's can be stored
 * and shown ({@code [IdemToolName]}), by the rules the runtime applies too ({@link StoreNames},
 * {@link ToolNames}). A name used twice in one store is the processor's, across tools.
 */
final class NameRules {

    /** Reports a store or tool name the runtime would refuse; returns the tool's name. */
    String check(ToolAnnotation values, ExecutableElement method, String display) {
        String storeProblem = StoreNames.problem(values.string("store"));
        if (storeProblem != null) {
            values.report(Diagnostic.STORE_NAME, "store", storeProblem);
        }
        // Only the default (empty) means the method's name (as written in Kotlin, for an internal
        // member): blanks given on purpose are a mistake.
        String name = values.string("name").isEmpty() ? KotlinDeclarations.sourceName(method) : values.string("name");
        String nameProblem = ToolNames.problem(name);
        if (nameProblem != null) {
            values.report(Diagnostic.TOOL_NAME, "name", display, ToolNames.printable(name, 40), nameProblem);
        }
        return name;
    }
}
