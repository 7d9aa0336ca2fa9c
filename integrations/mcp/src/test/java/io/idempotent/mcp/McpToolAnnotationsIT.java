package io.idempotent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idempotent.runtime.Step;
import io.modelcontextprotocol.server.McpServerFeatures;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.ai.mcp.annotation.provider.tool.SyncMcpToolProvider;

/** Spring AI's real @McpTool methods on a real McpServer.sync over an in-process stdio transport, the agent attached. */
class McpToolAnnotationsIT {

    private static final String CONFLICT = "{\"error\":\"conflict\",\"tool\":\"mcp_annotated_refund\",\"message\":\"this"
            + " decision was already executed with different arguments: do not retry with changed arguments\"}";

    @RegisterExtension
    static final McpFixture MCP = new McpFixture();

    private PaymentProvider provider;
    private PipedMcpClient client;
    private String step;

    @BeforeEach
    void setUp() {
        provider = new PaymentProvider();
        step = "refund-approved-" + UUID.randomUUID();
    }

    private void start(List<McpServerFeatures.SyncToolSpecification> tools) throws Exception {
        client = MCP.syncServer("refunds", tools);
    }

    @Test
    void aRepeatReplaysAndChangedArgumentsAnswerTheCuratedConflictWithTheStepFromMcpMeta() throws Exception {
        start(IdempotentMcpTools.sync(new AnnotatedRefundTools(provider)));
        JsonNode first = call("refund", 500, Step.asContext(step));
        JsonNode repeat = call("refund", 500, Step.asContext(step));
        JsonNode changed = call("refund", 700, Step.asContext(step));

        assertThat(first.at("/result/isError").asBoolean()).as(first.toString()).isFalse();
        assertThat(text(first)).isEqualTo("re_1_inv_1_500");
        assertThat(repeat.at("/result/content")).isEqualTo(first.at("/result/content"));
        assertThat(changed.has("error")).as(changed.toString()).isFalse();
        assertThat(changed.at("/result/isError").asBoolean()).isTrue();
        assertThat(text(changed)).isEqualTo(CONFLICT);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void aMethodWithoutAContextParameterRunsUnderTheStepOfTheRequestsMeta() throws Exception {
        start(IdempotentMcpTools.sync(new AnnotatedRefundTools(provider)));
        JsonNode first = call("credit", 500, Step.asContext(step));
        JsonNode repeat = call("credit", 500, Step.asContext(step));

        assertThat(first.at("/result/isError").asBoolean()).as(first.toString()).isFalse();
        assertThat(repeat.at("/result/content")).isEqualTo(first.at("/result/content"));
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void aMissingStepIsRefusedAsAResultThatNamesTheMetaEntry() throws Exception {
        start(IdempotentMcpTools.sync(new AnnotatedRefundTools(provider)));
        JsonNode missing = call("refund", 500, Map.of());

        assertThat(missing.has("error")).as(missing.toString()).isFalse();
        assertThat(missing.at("/result/isError").asBoolean()).isTrue();
        assertThat(missing.at("/result/structuredContent/code").asText()).isEqualTo("missing_step");
        assertThat(missing.at("/result/structuredContent/meta").asText()).isEqualTo("io.idempotent/step");
        assertThat(provider.requests()).isZero();
    }

    @Test
    void springAisOwnCallbackHandsTheModelTheRawExceptionMessage() throws Exception {
        // What IdempotentMcpTools replaces: Spring AI 2.0.1 answers isError, but with the exception's text.
        start(new SyncMcpToolProvider(List.of(new AnnotatedRefundTools(provider))).getToolSpecifications());
        call("refund", 500, Step.asContext(step));
        JsonNode changed = call("refund", 700, Step.asContext(step));
        JsonNode missing = call("refund", 500, Map.of());

        assertThat(changed.at("/result/isError").asBoolean()).as(changed.toString()).isTrue();
        assertThat(text(changed)).isNotEqualTo(CONFLICT).contains("payload");
        assertThat(missing.at("/result/isError").asBoolean()).as(missing.toString()).isTrue();
        assertThat(provider.effects()).isEqualTo(1);
    }

    private JsonNode call(String tool, long cents, Map<String, Object> meta) {
        try {
            return client.callTool(tool, Map.of("invoiceId", "inv_1", "amountCents", cents), meta);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String text(JsonNode response) {
        return response.at("/result/content/0/text").asText();
    }
}
