package io.idempotent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.ai.mcp.server.common.autoconfigure.annotations.McpServerAnnotationScannerAutoConfiguration;
import org.springframework.ai.mcp.server.common.autoconfigure.annotations.McpServerSpecificationFactoryAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * Spring AI's MCP server auto-configuration builds the tool specifications from {@code @McpTool}
 * beans; with this library's auto-configuration the server's specifications carry the same
 * listing as {@link IdempotentMcpTools} gives (the {@code _meta} step entry, the verified
 * annotations, the user's own hint kept).
 */
class McpServerStarterListingTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(McpServerAnnotationScannerAutoConfiguration.class,
                    McpServerSpecificationFactoryAutoConfiguration.class, IdempotentMcpServerAutoConfiguration.class))
            .withBean(StarterTools.class);

    @Test
    void theStartersToolSpecificationsCarryTheListingThatIdempotentMcpToolsGives() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            Map<String, McpSchema.Tool> listed = serverTools(context);
            Map<String, McpSchema.Tool> expected = IdempotentMcpTools.sync(new StarterTools()).stream()
                    .map(McpServerFeatures.SyncToolSpecification::tool)
                    .collect(Collectors.toMap(McpSchema.Tool::name, Function.identity()));
            assertThat(listed).containsOnlyKeys("starter_refund", "starter_credit");
            assertThat(listed).isEqualTo(expected);

            McpSchema.Tool refund = listed.get("starter_refund");
            assertThat(refund.meta()).containsKey(IdempotentMcp.STEP_ENTRY);
            assertThat(stepEntry(refund)).containsEntry("required", true);
            McpSchema.Tool credit = listed.get("starter_credit");
            assertThat(stepEntry(credit)).containsEntry("required", false);
            assertThat(credit.annotations().idempotentHint()).as("a key of the arguments alone").isTrue();
            assertThat(credit.annotations().destructiveHint()).as("the user's own hint").isFalse();
        });
    }

    @Test
    void withoutItTheStartersListingIsSpringAisOwn() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
                McpServerAnnotationScannerAutoConfiguration.class, McpServerSpecificationFactoryAutoConfiguration.class))
                .withBean(StarterTools.class).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(serverTools(context).get("starter_refund").meta()).isNull();
                });
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> stepEntry(McpSchema.Tool tool) {
        return (Map<Object, Object>) tool.meta().get(IdempotentMcp.STEP_ENTRY);
    }

    /** The tools of every tool-specification list the server would register. */
    private static Map<String, McpSchema.Tool> serverTools(ApplicationContext context) {
        return context.getBeansOfType(List.class).values().stream().flatMap(list -> ((List<?>) list).stream())
                .filter(McpServerFeatures.SyncToolSpecification.class::isInstance)
                .map(s -> ((McpServerFeatures.SyncToolSpecification) s).tool())
                .collect(Collectors.toMap(McpSchema.Tool::name, Function.identity()));
    }
}
