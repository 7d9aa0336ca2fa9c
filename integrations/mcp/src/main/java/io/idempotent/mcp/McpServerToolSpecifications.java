package io.idempotent.mcp;

import io.idempotent.runtime.internal.ListedBindings;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the tool specifications that Spring AI's MCP server auto-configuration builds (from
 * {@code @McpTool} beans and from {@code ToolCallback}s) with {@link IdempotentMcp#wrap}, so the
 * server lists them and answers their calls as {@code IdempotentMcp.wrap} and
 * {@link IdempotentMcpTools} do: the starter has no hook of its own, but hands the server every
 * tool as a bean of type {@code List<...ToolSpecification>}, which this post-processor replaces.
 *
 * <p>A sync {@code @McpTool} method's specification is replaced by the one
 * {@link IdempotentMcpTools#sync} builds for its bean (Spring AI's own method callback turns the
 * runtime's refusals into raw-text errors before any wrapper sees them); an async one is listed
 * from its method's binding with Spring AI's rule for its hints
 * ({@link IdempotentMcpTools#springListing}); any other tool (a {@code ToolCallback}) is listed
 * through the release-gate tables by its MCP name. A specification already listed (wrapped by
 * the application) keeps its listing.
 */
final class McpServerToolSpecifications implements BeanPostProcessor {

    /** {@code @McpTool} methods of the beans initialized so far, by MCP tool name. */
    private final Map<String, Method> mcpToolMethods = new ConcurrentHashMap<>();
    /** The beans of those methods, by MCP tool name. */
    private final Map<String, Object> mcpToolBeans = new ConcurrentHashMap<>();

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof List<?> list) {
            return wrapped(list);
        }
        // Spring AI's scanner sees the same beans, in the same order, before it builds its list.
        for (Method method : AopUtils.getTargetClass(bean).getMethods()) {
            McpTool annotation = method.getAnnotation(McpTool.class);
            if (annotation != null) {
                String name = annotation.name().isBlank() ? method.getName() : annotation.name();
                mcpToolMethods.put(name, method);
                mcpToolBeans.put(name, bean);
            }
        }
        return bean;
    }

    /** {@code list} with each tool specification wrapped, or {@code list} itself when it holds none. */
    private List<?> wrapped(List<?> list) {
        if (list.isEmpty() || !list.stream().allMatch(McpServerToolSpecifications::isToolSpecification)) {
            return list;
        }
        List<Object> wrapped = new ArrayList<>(list.size());
        for (Object specification : list) {
            wrapped.add(wrap(specification));
        }
        return wrapped;
    }

    private static boolean isToolSpecification(Object o) {
        return o instanceof McpServerFeatures.SyncToolSpecification
                || o instanceof McpServerFeatures.AsyncToolSpecification
                || o instanceof McpStatelessServerFeatures.SyncToolSpecification
                || o instanceof McpStatelessServerFeatures.AsyncToolSpecification;
    }

    private Object wrap(Object specification) {
        if (specification instanceof McpServerFeatures.SyncToolSpecification s && s.tool() != null
                && mcpToolBeans.containsKey(s.tool().name())) {
            return IdempotentMcpTools.sync(mcpToolBeans.get(s.tool().name())).stream()
                    .filter(own -> own.tool().name().equals(s.tool().name())).findFirst().orElseThrow();
        }
        if (specification instanceof McpServerFeatures.SyncToolSpecification s) {
            return IdempotentMcp.wrap(new McpServerFeatures.SyncToolSpecification(listed(s.tool()), s.callHandler()));
        }
        if (specification instanceof McpServerFeatures.AsyncToolSpecification s) {
            return IdempotentMcp.wrap(new McpServerFeatures.AsyncToolSpecification(listed(s.tool()),
                    s.callHandler()));
        }
        if (specification instanceof McpStatelessServerFeatures.SyncToolSpecification s) {
            return IdempotentMcp.wrap(new McpStatelessServerFeatures.SyncToolSpecification(listed(s.tool()),
                    s.callHandler()));
        }
        McpStatelessServerFeatures.AsyncToolSpecification s = (McpStatelessServerFeatures.AsyncToolSpecification)
                specification;
        return IdempotentMcp.wrap(new McpStatelessServerFeatures.AsyncToolSpecification(listed(s.tool()),
                s.callHandler()));
    }

    /** An {@code @McpTool} method's listing; any other tool is listed by {@code IdempotentMcp.wrap}. */
    private McpSchema.Tool listed(McpSchema.Tool tool) {
        if (tool == null || tool.meta() != null && tool.meta().containsKey(IdempotentMcp.STEP_ENTRY)) {
            return tool;
        }
        return Optional.ofNullable(mcpToolMethods.get(tool.name())).flatMap(ListedBindings::of)
                .map(binding -> IdempotentMcpTools.springListing(tool, binding.policy())).orElse(tool);
    }
}
