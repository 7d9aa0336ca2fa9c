package io.idempotent.mcp;

import static io.idempotent.mcp.McpFixture.JSON;
import static io.idempotent.mcp.McpFixture.SCHEMA;
import static io.idempotent.mcp.McpFixture.refundTool;
import static io.idempotent.mcp.McpFixture.WAIT;
import static io.idempotent.mcp.McpFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.CountingMetrics;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Step;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a real MCP client (the Java SDK's, over streamable HTTP to an embedded Tomcat) sees of
 * wrapped tools: the listing's {@code _meta} step entry and annotations, refusals as
 * {@code isError} results with a stable code, the results' replay {@code _meta}, and a duplicate
 * that waits for the original's answer. The agent is attached; each test sets a global runtime of
 * its own (with or without {@code duplicateWait}) and puts the previous one back.
 */
class McpListingAndWaitIT {

    @TempDir
    Path dir;

    @RegisterExtension
    static final McpFixture MCP = new McpFixture();

    private final PaymentProvider provider = new PaymentProvider();
    private final ListedTools tools = new ListedTools(provider);
    private final CountingMetrics metrics = new CountingMetrics();
    private IdempotentRuntime previous;

    @Test
    void theListingSaysWhatToSendAndWhenARepeatIsSafeAndKeepsTheUsersOwnAnnotations() throws Exception {
        McpSyncClient client = MCP.syncClient(start(Duration.ZERO));
        Map<String, McpSchema.Tool> listed = client.listTools().tools().stream()
                .collect(Collectors.toMap(McpSchema.Tool::name, t -> t));

        McpSchema.Tool refund = listed.get("listed_refund");
        assertThat(refund.meta()).containsKey(Step.CONTEXT_KEY);
        Map<?, ?> entry = (Map<?, ?>) refund.meta().get(Step.CONTEXT_KEY);
        assertThat(entry.get("required")).isEqualTo(true);
        assertThat(entry.get("repeatSafe")).isEqualTo("same_step_and_arguments");
        assertThat((String) entry.get("description")).contains("_meta").contains("missing_step");
        assertThat(refund.annotations().readOnlyHint()).isFalse();
        assertThat(refund.annotations().idempotentHint()).as("not claimed without the same step").isNull();
        assertThat(refund.annotations().openWorldHint()).isTrue();

        McpSchema.Tool credit = listed.get("listed_credit");
        assertThat(((Map<?, ?>) credit.meta().get(Step.CONTEXT_KEY)).get("required")).isEqualTo(false);
        assertThat(credit.annotations().idempotentHint()).as("a key of the arguments alone").isTrue();

        McpSchema.Tool hinted = listed.get("listed_refund_with_hints");
        assertThat(hinted.annotations().title()).isEqualTo("Refund, by hand");
        assertThat(hinted.annotations().openWorldHint()).as("the user's own value").isFalse();
        assertThat(hinted.annotations().idempotentHint()).as("the user's own value").isFalse();
        assertThat(hinted.annotations().readOnlyHint()).as("the verified value where the user set none").isFalse();
        assertThat(hinted.meta()).containsKey(Step.CONTEXT_KEY).containsEntry("com.example/owner", "payments");

        McpSchema.Tool spring = listed.get("spring_credit");
        assertThat(((Map<?, ?>) spring.meta().get(Step.CONTEXT_KEY)).get("required")).isEqualTo(false);
        assertThat(spring.annotations().idempotentHint()).isTrue();
        assertThat(spring.annotations().destructiveHint()).as("@McpAnnotations(destructiveHint = false)").isFalse();
        assertThat(spring.annotations().openWorldHint()).as("@McpAnnotations(openWorldHint = false)").isFalse();
    }

    @Test
    void aCallWithoutTheStepIsRefusedNamingTheMetaEntryAndNothingIsClaimed() throws Exception {
        McpSyncClient client = MCP.syncClient(start(Duration.ZERO));
        CallToolResult missing = client.callTool(new CallToolRequest("listed_refund",
                Map.of("invoiceId", "inv_1", "amountCents", 500)));

        assertThat(missing.isError()).as(missing.toString()).isTrue();
        Map<?, ?> structured = (Map<?, ?>) missing.structuredContent();
        assertThat(structured.get("code")).isEqualTo("missing_step");
        assertThat(structured.get("meta")).isEqualTo("io.idempotent/step");
        assertThat(structured.get("tool")).isEqualTo("listed_refund");
        assertThat(text(missing)).contains("\"error\":\"missing_step\"").contains("_meta")
                .contains("io.idempotent/step");
        assertThat(missing.meta()).containsEntry("io.idempotent/outcome", "missing_step");
        assertThat(provider.requests()).isZero();
        assertThat(metrics.count("listed_refund", CountingMetrics.Event.ATTEMPTS)).as("no claim").isZero();
    }

    @Test
    void resultsSayReplayAndKeyAndRefusalsCarryAStableCode() throws Exception {
        McpSyncClient client = MCP.syncClient(start(Duration.ZERO));
        String step = "refund-approved-" + UUID.randomUUID();
        CallToolResult first = client.callTool(refund(step, 500));
        CallToolResult repeat = client.callTool(refund(step, 500));
        CallToolResult changed = client.callTool(refund(step, 700));

        assertThat(first.isError()).as(first.toString()).isNotEqualTo(Boolean.TRUE);
        assertThat(first.meta()).containsEntry("io.idempotent/replay", false)
                .containsEntry("io.idempotent/key", "refund:" + step);
        assertThat(repeat.meta()).containsEntry("io.idempotent/replay", true)
                .containsEntry("io.idempotent/key", "refund:" + step);
        assertThat(text(repeat)).isEqualTo(text(first));
        assertThat(changed.isError()).isTrue();
        assertThat(((Map<?, ?>) changed.structuredContent()).get("code")).isEqualTo("conflict");
        assertThat(provider.effects()).isEqualTo(1);
    }

    @Test
    void withWaitingOnTheDuplicateGetsTheOriginalsRefund() throws Exception {
        String url = start(Duration.ofSeconds(20));
        McpSyncClient a = MCP.syncClient(url);
        McpSyncClient b = MCP.syncClient(url);
        String step = "refund-approved-" + UUID.randomUUID();
        PaymentProvider.Hold hold = provider.holdNextRefund();
        CompletableFuture<CallToolResult> ofA = CompletableFuture.supplyAsync(() -> a.callTool(refund(step, 500)));
        hold.awaitEntered();
        CompletableFuture<CallToolResult> ofB = CompletableFuture.supplyAsync(() -> b.callTool(refund(step, 500)));
        awaitADuplicateWaiting();
        assertThat(ofB).as("the duplicate waits").isNotDone();
        hold.release();

        CallToolResult original = ofA.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        CallToolResult duplicate = ofB.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(original.isError()).as(original.toString()).isNotEqualTo(Boolean.TRUE);
        assertThat(duplicate.isError()).as(duplicate.toString()).isNotEqualTo(Boolean.TRUE);
        assertThat(text(duplicate)).isEqualTo(text(original)).isEqualTo("re_1_inv_1_500");
        assertThat(duplicate.meta()).containsEntry("io.idempotent/replay", true);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
        assertThat(metrics.count("listed_refund", CountingMetrics.Event.DUPLICATE_WAITS_ANSWERED)).isEqualTo(1);
    }

    @Test
    void withWaitingOffTheDuplicateIsToldToRetryLater() throws Exception {
        String url = start(Duration.ZERO);
        McpSyncClient a = MCP.syncClient(url);
        McpSyncClient b = MCP.syncClient(url);
        String step = "refund-approved-" + UUID.randomUUID();
        PaymentProvider.Hold hold = provider.holdNextRefund();
        CompletableFuture<CallToolResult> ofA = CompletableFuture.supplyAsync(() -> a.callTool(refund(step, 500)));
        hold.awaitEntered();
        CallToolResult duplicate;
        try {
            duplicate = b.callTool(refund(step, 500));
        } finally {
            hold.release();
        }
        assertThat(duplicate.isError()).isTrue();
        assertThat(((Map<?, ?>) duplicate.structuredContent()).get("code")).isEqualTo("retry_later");
        assertThat(ofA.get(WAIT.toSeconds(), TimeUnit.SECONDS).isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void aWaitPastItsBoundIsAnsweredInProgress() throws Exception {
        String url = start(Duration.ofMillis(300));
        McpSyncClient a = MCP.syncClient(url);
        McpSyncClient b = MCP.syncClient(url);
        String step = "refund-approved-" + UUID.randomUUID();
        PaymentProvider.Hold hold = provider.holdNextRefund();
        CompletableFuture<CallToolResult> ofA = CompletableFuture.supplyAsync(() -> a.callTool(refund(step, 500)));
        hold.awaitEntered();
        CallToolResult duplicate;
        try {
            duplicate = b.callTool(refund(step, 500));
        } finally {
            hold.release();
        }
        assertThat(((Map<?, ?>) duplicate.structuredContent()).get("code")).isEqualTo("retry_later");
        assertThat(ofA.get(WAIT.toSeconds(), TimeUnit.SECONDS).isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(metrics.count("listed_refund", CountingMetrics.Event.DUPLICATE_WAITS_TIMED_OUT)).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
    }

    @Test
    void anOriginalThatFailsGivesTheWaiterItsClassifiedFailureNotASecondRun() throws Exception {
        String url = start(Duration.ofSeconds(20));
        tools.failAfterTheProvider = true;
        McpSyncClient a = MCP.syncClient(url);
        McpSyncClient b = MCP.syncClient(url);
        String step = "refund-approved-" + UUID.randomUUID();
        PaymentProvider.Hold hold = provider.holdNextRefund();
        CompletableFuture<CallToolResult> ofA = CompletableFuture.supplyAsync(() -> a.callTool(refund(step, 500)));
        hold.awaitEntered();
        CompletableFuture<CallToolResult> ofB = CompletableFuture.supplyAsync(() -> b.callTool(refund(step, 500)));
        awaitADuplicateWaiting();
        hold.release();

        ofA.handle((result, failure) -> null).get(WAIT.toSeconds(), TimeUnit.SECONDS); // the body's own failure
        CallToolResult duplicate = ofB.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(duplicate.isError()).isTrue();
        assertThat(((Map<?, ?>) duplicate.structuredContent()).get("code")).isEqualTo("in_review");
        assertThat(provider.requests()).as("never a second run").isEqualTo(1);
    }

    @Test
    void anOriginalThatFailsSafeTellsTheWaiterToRetryAndItsRepeatGetsTheRefund() throws Exception {
        String url = start(Duration.ofSeconds(20));
        McpSyncClient a = MCP.syncClient(url);
        McpSyncClient b = MCP.syncClient(url);
        String step = "refund-approved-" + UUID.randomUUID();
        PaymentProvider.Hold hold = provider.holdNextRefund();
        provider.declineNextRefund();
        CompletableFuture<CallToolResult> ofA = CompletableFuture.supplyAsync(() -> a.callTool(refund(step, 500)));
        hold.awaitEntered();
        CompletableFuture<CallToolResult> ofB = CompletableFuture.supplyAsync(() -> b.callTool(refund(step, 500)));
        awaitADuplicateWaiting();
        hold.release();

        ofA.handle((result, failure) -> null).get(WAIT.toSeconds(), TimeUnit.SECONDS); // the provider's decline
        CallToolResult duplicate = ofB.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(duplicate.isError()).isTrue();
        assertThat(((Map<?, ?>) duplicate.structuredContent()).get("code")).as(duplicate.toString())
                .isEqualTo("retry_later");
        assertThat(provider.effects()).as("the decline refunded nothing, the waiter ran nothing").isZero();
        // The client does what retry_later says: the same call, same step; it claims the failed-safe row.
        CallToolResult repeat = b.callTool(refund(step, 500));
        assertThat(repeat.isError()).as(repeat.toString()).isNotEqualTo(Boolean.TRUE);
        assertThat(text(repeat)).isEqualTo("re_1_inv_1_500");
        assertThat(repeat.meta()).containsEntry("io.idempotent/replay", false);
        assertThat(provider.effects()).isEqualTo(1);
    }

    /** Until a server thread waits in the runtime for the original's outcome (a deadline, not a sleep). */
    private static void awaitADuplicateWaiting() throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
                for (StackTraceElement frame : stack) {
                    if (frame.getClassName().endsWith(".DuplicateWaits")) {
                        return;
                    }
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no duplicate waited within " + WAIT);
    }

    private static CallToolRequest refund(String step, long cents) {
        return new CallToolRequest("listed_refund", Map.of("invoiceId", "inv_1", "amountCents", cents),
                Step.asContext(step));
    }

    /** Starts the server with a global runtime of its own (waiting {@code duplicateWait}) and returns its URL. */
    private String start(Duration duplicateWait) throws Exception {
        IdempotentRuntime.global(); // the agent's, so that it can be put back
        IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", "jdbc:h2:file:" + dir.resolve("store").toAbsolutePath(), "sa", "")
                .duplicateWait(duplicateWait).metrics(metrics).build();
        previous = IdempotentRuntime.setGlobal(runtime);
        MCP.closeAfter(() -> IdempotentRuntime.setGlobal(previous).close());

        McpSchema.Tool hinted = McpSchema.Tool.builder().name("listed_refund_with_hints").description("Refund")
                .inputSchema(JSON, SCHEMA).meta(Map.of("com.example/owner", "payments"))
                .annotations(McpSchema.ToolAnnotations.builder().title("Refund, by hand").openWorldHint(false)
                        .idempotentHint(false).build()).build();
        List<McpServerFeatures.SyncToolSpecification> specifications = new ArrayList<>();
        specifications.add(IdempotentMcp.wrap(new McpServerFeatures.SyncToolSpecification(refundTool("listed_refund"),
                (exchange, request) -> result(tools.refund(invoice(request), cents(request))))));
        specifications.add(IdempotentMcp.wrap(new McpServerFeatures.SyncToolSpecification(hinted,
                (exchange, request) -> result(tools.refundWithHints(invoice(request), cents(request))))));
        specifications.add(IdempotentMcp.wrap(new McpServerFeatures.SyncToolSpecification(refundTool("listed_credit"),
                (exchange, request) -> result(tools.credit(invoice(request), cents(request))))));
        specifications.addAll(IdempotentMcpTools.sync(tools));

        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider
                .builder().jsonMapper(JSON).mcpEndpoint("/mcp").build();
        var server = McpServer.sync(transport).serverInfo("refunds", "1")
                .capabilities(McpFixture.toolsOnly())
                .tools(specifications).build();
        MCP.closeAfter(server::closeGracefully);
        return MCP.serve(transport, dir);
    }

    private static String invoice(CallToolRequest request) {
        return (String) request.arguments().get("invoiceId");
    }

    private static long cents(CallToolRequest request) {
        return ((Number) request.arguments().get("amountCents")).longValue();
    }

    private static CallToolResult result(String text) {
        return CallToolResult.builder().addTextContent(text).isError(false).build();
    }

}
