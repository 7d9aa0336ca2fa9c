package io.idempotent.mcp;

import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.ListedBindings;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.method.tool.ReturnMode;
import org.springframework.ai.mcp.annotation.provider.tool.SyncMcpToolProvider;

/**
 * Sync server tools from Spring AI's {@code @McpTool} methods (Spring AI 2.0.1's MCP
 * annotations), answered the idempotent way. Spring AI's own method callback turns every
 * exception of a tool method into an {@code isError} result carrying the exception's message and
 * its root cause's message: the runtime's retry, review and conflict outcomes would reach the
 * model as raw text, and a configuration error (a missing step) as something the model is asked
 * to fix. The callback is final, so these specifications keep Spring AI's tool definitions
 * (name, schema, annotations, argument binding, result conversion) and call each method through
 * a callback that lets the runtime's exceptions through to {@link IdempotentMcp#wrap}; every other
 * failure still gets Spring AI's error result. Each definition gets the listing of the method's
 * generated binding ({@link IdempotentMcp#listing}): the {@code _meta} step entry and the
 * {@code ToolAnnotations} it verifies, the values of the method's own
 * {@code @McpTool(annotations = @McpAnnotations(...))} kept.
 *
 * <pre>{@code
 * McpServer.sync(transport).tools(IdempotentMcpTools.sync(refundTools)).build();
 * }</pre>
 *
 * <p>Only the sync server kind is covered. Spring Boot's MCP server auto-configuration was not
 * tested with it: if its annotation scanner also picks up the bean, it registers Spring AI's own
 * specifications for the same methods.
 */
public final class IdempotentMcpTools {

    private IdempotentMcpTools() {
    }

    /**
     * One sync tool specification per {@code @McpTool} method of {@code toolObjects}, each run
     * under the request's {@code _meta} step and answering the runtime's outcomes as results.
     */
    public static List<McpServerFeatures.SyncToolSpecification> sync(Object... toolObjects) {
        Objects.requireNonNull(toolObjects, "toolObjects");
        return new Provider(List.of(toolObjects)).idempotentSpecifications(null);
    }

    /**
     * As {@link #sync(Object...)}, for a server several clients share: each request's step is
     * prefixed with the client {@code scope} names ({@link IdempotentMcp#wrap(
     * McpServerFeatures.SyncToolSpecification, StepScope)}).
     */
    public static List<McpServerFeatures.SyncToolSpecification> sync(StepScope scope, Object... toolObjects) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(toolObjects, "toolObjects");
        return new Provider(List.of(toolObjects)).idempotentSpecifications(scope);
    }

    /**
     * The listing of a Spring AI tool: Spring AI fills every hint of {@code @McpAnnotations},
     * its defaults included ({@code idempotentHint = false}, {@code destructiveHint = true},
     * ...), and a default cannot be told from the same value written by hand. A hint equal to
     * {@code @McpAnnotations}' default counts as not set, so the verified value stands; a
     * hint the user changed from the default wins. (The release gate, which sees what was
     * written, reports a hand-written {@code idempotentHint} that contradicts the key.)
     */
    static McpSchema.Tool springListing(McpSchema.Tool generated, ToolPolicy policy) {
        McpSchema.ToolAnnotations spring = generated.annotations();
        McpSchema.ToolAnnotations changed = spring == null ? null : new McpSchema.ToolAnnotations(
                spring.title() == null || spring.title().isEmpty() ? null : spring.title(),
                changedFromDefault(spring.readOnlyHint(), "readOnlyHint"),
                changedFromDefault(spring.destructiveHint(), "destructiveHint"),
                changedFromDefault(spring.idempotentHint(), "idempotentHint"),
                changedFromDefault(spring.openWorldHint(), "openWorldHint"), spring.returnDirect());
        McpSchema.Tool withChanged = new McpSchema.Tool(generated.name(), generated.title(),
                generated.description(), generated.inputSchema(), generated.outputSchema(), changed,
                generated.meta(), generated.icons());
        McpSchema.Tool listed = McpListing.describe(withChanged, policy);
        // Spring AI's defaults for what neither the user nor the binding says, as Spring AI lists them.
        return new McpSchema.Tool(listed.name(), listed.title(), listed.description(), listed.inputSchema(),
                listed.outputSchema(), McpListing.merge(listed.annotations(), spring), listed.meta(),
                listed.icons());
    }

    private static Boolean changedFromDefault(Boolean value, String hint) {
        try {
            Object defaultValue = McpTool.McpAnnotations.class.getMethod(hint).getDefaultValue();
            return value == null || value.equals(defaultValue) ? null : value;
        } catch (NoSuchMethodException e) {
            return value; // a Spring AI without this hint: whatever it listed is the user's
        }
    }

    /** Spring AI's provider, for its tool definitions and its way of finding the methods. */
    private static final class Provider extends SyncMcpToolProvider {

        Provider(List<Object> toolObjects) {
            super(toolObjects);
        }

        List<McpServerFeatures.SyncToolSpecification> idempotentSpecifications(StepScope scope) {
            Map<String, Target> targets = new HashMap<>();
            for (Object toolObject : toolObjects) {
                for (Method method : doGetClassMethods(toolObject)) {
                    McpTool annotation = doGetMcpToolAnnotation(method);
                    if (annotation != null) {
                        String name = annotation.name() == null || annotation.name().isBlank() ? method.getName()
                                : annotation.name();
                        targets.put(name, new Target(method, toolObject));
                    }
                }
            }
            List<McpServerFeatures.SyncToolSpecification> specifications = new ArrayList<>();
            for (McpServerFeatures.SyncToolSpecification generated : getToolSpecifications()) {
                Target target = targets.get(generated.tool().name());
                if (target == null) {
                    throw new IllegalStateException("no @McpTool method named " + generated.tool().name()
                            + " was found for the tool Spring AI generated");
                }
                McpToolMethodCall call = new McpToolMethodCall(returnMode(generated, target.method), target.method,
                        target.toolObject);
                // Listed from the method's own binding: the @McpTool name need not be the tool's.
                McpSchema.Tool listed = ListedBindings.of(target.method)
                        .map(binding -> springListing(generated.tool(), binding.policy()))
                        .orElse(generated.tool());
                McpServerFeatures.SyncToolSpecification specification =
                        new McpServerFeatures.SyncToolSpecification(listed, call);
                specifications.add(scope == null ? IdempotentMcp.wrap(specification)
                        : IdempotentMcp.wrap(specification, scope));
            }
            return List.copyOf(specifications);
        }

        /** As Spring AI's provider chooses: structured when it generated an output schema. */
        private static ReturnMode returnMode(McpServerFeatures.SyncToolSpecification generated, Method method) {
            if (generated.tool().outputSchema() != null) {
                return ReturnMode.STRUCTURED;
            }
            Class<?> returned = method.getReturnType();
            return returned == void.class || returned == Void.class ? ReturnMode.VOID : ReturnMode.TEXT;
        }
    }

    private record Target(Method method, Object toolObject) {
    }
}
