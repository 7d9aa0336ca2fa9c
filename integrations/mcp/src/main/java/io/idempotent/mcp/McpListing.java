package io.idempotent.mcp;

import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.ListedBindings;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a wrapped tool's listing ({@code tools/list}) says about the idempotency its generated
 * binding verified: the {@code _meta} entry {@link Step#CONTEXT_KEY} (whether the tool needs a
 * step there, and when a repeat is safe) and MCP {@code ToolAnnotations} that are true by the
 * spec's words. What the user set on the tool wins, field by field.
 */
final class McpListing {

    /** The {@code _meta} entry's field: whether a call must carry the step. */
    static final String REQUIRED = "required";
    /** The {@code _meta} entry's field: which repeats are answered without a second effect. */
    static final String REPEAT_SAFE = "repeatSafe";
    /** The {@code _meta} entry's field: the entry's meaning, one sentence for a person or a model. */
    static final String DESCRIPTION = "description";

    private static final String STEP_KEYED = "Send the workflow step's id here, in the _meta of every call: a call"
            + " repeated with the same step and the same arguments is answered with the first call's result and has"
            + " no second effect, a new step is a new decision, and a call without it is refused (missing_step).";
    private static final String ARGUMENT_KEYED = "No step is needed: a call repeated with the same arguments is"
            + " answered with the first call's result and has no second effect.";

    private McpListing() {
    }

    /** {@code tool} with the listing of {@code policy} merged in; the user's own values kept. */
    static McpSchema.Tool describe(McpSchema.Tool tool, ToolPolicy policy) {
        boolean step = ListedBindings.keyUsesStep(policy);
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put(REQUIRED, step);
        entry.put(REPEAT_SAFE, step ? "same_step_and_arguments" : "same_arguments");
        entry.put(DESCRIPTION, step ? STEP_KEYED : ARGUMENT_KEYED);
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put(Step.CONTEXT_KEY, entry);
        if (tool.meta() != null) {
            meta.putAll(tool.meta()); // the user's own entry, if any, wins
        }
        ToolAnnotations verified = new ToolAnnotations(null,
                false, // a tool with an operation to deduplicate changes something
                null, // additive or destructive: nothing in the policy says
                step ? null : Boolean.TRUE, // with {step}, true only under the same step: said in _meta instead
                policy.downstreamKey() ? Boolean.TRUE : null, // the key is sent to an external system
                null);
        return new McpSchema.Tool(tool.name(), tool.title(), tool.description(), tool.inputSchema(),
                tool.outputSchema(), merge(tool.annotations(), verified), meta, tool.icons());
    }

    /** Field by field, the user's value where set, else the verified one. */
    static ToolAnnotations merge(ToolAnnotations user, ToolAnnotations verified) {
        if (user == null) {
            return verified;
        }
        return new ToolAnnotations(user.title() != null ? user.title() : verified.title(),
                user.readOnlyHint() != null ? user.readOnlyHint() : verified.readOnlyHint(),
                user.destructiveHint() != null ? user.destructiveHint() : verified.destructiveHint(),
                user.idempotentHint() != null ? user.idempotentHint() : verified.idempotentHint(),
                user.openWorldHint() != null ? user.openWorldHint() : verified.openWorldHint(),
                user.returnDirect() != null ? user.returnDirect() : verified.returnDirect());
    }
}
