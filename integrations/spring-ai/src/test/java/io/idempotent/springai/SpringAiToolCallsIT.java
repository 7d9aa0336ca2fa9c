package io.idempotent.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.testing.AttachedAgent;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.support.ToolCallbacks;

/**
 * Real Spring AI (ChatClient, ToolCallingManager, MethodToolCallback) with the agent attached and
 * a scripted model that repeats a tool call under a new tool_call_id, as models do.
 */
class SpringAiToolCallsIT {

    private static final String REFUND = "{\"invoiceId\":\"inv_1\",\"amountCents\":500}";

    private PaymentProvider provider;
    private ScriptedChatModel model;
    private ChatClient chat;
    private String step;

    @BeforeAll
    static void attachTheAgent() throws Exception {
        AttachedAgent.attach();
    }

    @BeforeEach
    void setUp() {
        provider = new PaymentProvider();
        ToolCallingManager tools = DefaultToolCallingManager.builder()
                .toolExecutionExceptionProcessor(new IdempotentToolExecutionExceptionProcessor()).build();
        model = new ScriptedChatModel(tools);
        chat = ChatClient.builder(model).build();
        step = "refund-approved-" + UUID.randomUUID();
    }

    private static OperationRecord record(String tool, String key) {
        return IdempotentRuntime.global().operations().find(tool, key).orElseThrow();
    }

    @Test
    void aRepeatedToolCallUnderANewIdReplaysWithCall() {
        model.toolCall("call_1", "issueRefund", REFUND).toolCall("call_2", "issueRefund", REFUND).says("done");

        String answer = chat.prompt("refund inv_1").tools(new RefundTools(provider))
                .toolContext(Step.asContext(step)).call().content();

        assertThat(answer).isEqualTo("done");
        assertThat(provider.requests()).isEqualTo(1);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(model.toolResults()).hasSize(2);
        assertThat(model.toolResults().get(1)).isEqualTo(model.toolResults().get(0)).contains("re_1_inv_1_500");
        OperationRecord record = record("spring_ai_refund", "refund:" + step);
        assertThat(record.status()).isEqualTo(OperationStatus.COMPLETED);
        assertThat(record.attempts()).isEqualTo(1);
    }

    @Test
    void aRepeatedToolCallReplaysWithStreamOnReactorsThreads() {
        model.toolCall("call_1", "issueRefund", REFUND).toolCall("call_2", "issueRefund", REFUND).says("done");

        String answer = String.join("", chat.prompt("refund inv_1").tools(new RefundTools(provider))
                .toolContext(Step.asContext(step)).stream().content().collectList().block());

        assertThat(answer).isEqualTo("done");
        assertThat(provider.requests()).isEqualTo(1);
        assertThat(provider.effects()).isEqualTo(1);
        // The body ran on Reactor's thread, where no thread-local Step was ever set.
        assertThat(model.toolResults().get(0)).contains("boundedElastic");
        assertThat(model.toolResults().get(1)).isEqualTo(model.toolResults().get(0));
    }

    @Test
    void changedArgumentsUnderTheSameStepGetAConflictResultAndNoSecondEffect() {
        model.toolCall("call_1", "issueRefund", REFUND)
                .toolCall("call_2", "issueRefund", "{\"invoiceId\":\"inv_1\",\"amountCents\":700}").says("sorry");

        String answer = chat.prompt("refund inv_1").tools(new RefundTools(provider))
                .toolContext(Step.asContext(step)).call().content();

        assertThat(answer).isEqualTo("sorry");
        assertThat(provider.requests()).isEqualTo(1);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(model.toolResults().get(1)).isEqualTo("{\"error\":\"conflict\",\"tool\":\"spring_ai_refund\","
                + "\"message\":\"this decision was already executed with different arguments: do not retry with"
                + " changed arguments\"}");
    }

    @Test
    void aToolAwaitingApprovalTellsTheModelToWaitWithTheSameArgumentsThenThatItWasDenied() {
        String payout = "{\"invoiceId\":\"inv_7\",\"amountCents\":90000}";
        model.toolCall("call_1", "payInvoice", payout).toolCall("call_2", "payInvoice", payout).says("waiting")
                .toolCall("call_3", "payInvoice", payout).says("denied");

        chat.prompt("pay inv_7").tools(new PayoutTools(provider)).toolContext(Step.asContext(step)).call().content();
        PendingApproval pending = IdempotentRuntime.global().approvals().pending("default", "spring_ai_payout", 0, 100)
                .stream().filter(p -> p.key().equals("payout:" + step)).findFirst().orElseThrow();
        IdempotentRuntime.global().approvals().deny("spring_ai_payout", "payout:" + step, pending.payloadHash(), "alice",
                "over the supplier's limit");
        chat.prompt("pay inv_7 now").tools(new PayoutTools(provider)).toolContext(Step.asContext(step)).call().content();

        String waiting = "{\"error\":\"approval_pending\",\"tool\":\"spring_ai_payout\",\"message\":\"the decision"
                + " waits for a person's approval: do not re-plan and do not change the arguments, call again later with"
                + " the same arguments\"}";
        assertThat(model.toolResults()).containsExactly(waiting, waiting, "{\"error\":\"approval_denied\",\"tool\":"
                + "\"spring_ai_payout\",\"message\":\"a person denied this decision: do not retry, and do not try"
                + " another way to do the same thing\"}");
        assertThat(provider.requests()).isZero();
        assertThat(record("spring_ai_payout", "payout:" + step).status()).isEqualTo(OperationStatus.DENIED);
    }

    @Test
    void anUnrelatedToolContextEntryIsNotPayload() {
        model.toolCall("call_1", "issueRefund", REFUND).says("done").toolCall("call_7", "issueRefund", REFUND)
                .says("done again");
        Map<String, Object> first = Step.asContext(step);
        first.put("requestId", "req-1");
        Map<String, Object> second = Step.asContext(step);
        second.put("requestId", "req-2");

        chat.prompt("refund inv_1").tools(new RefundTools(provider)).toolContext(first).call().content();
        chat.prompt("refund inv_1 again").tools(new RefundTools(provider)).toolContext(second).call().content();

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
        assertThat(model.toolResults().get(1)).isEqualTo(model.toolResults().get(0)).doesNotContain("error");
    }

    @Test
    void aToolWithoutAContextParameterGetsItsStepFromStepFromToolContext() {
        String credit = "{\"customerId\":\"cus_1\",\"amountCents\":300}";
        model.toolCall("call_1", "issueCredit", credit).toolCall("call_2", "issueCredit", credit).says("done");

        chat.prompt("credit cus_1").toolCallbacks(StepFromToolContext.wrap(ToolCallbacks.from(new CreditTools(provider))))
                .toolContext(Step.asContext(step)).stream().content().collectList().block();

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
        assertThat(model.toolResults().get(1)).isEqualTo(model.toolResults().get(0)).contains("boundedElastic");
        assertThat(record("spring_ai_credit", "credit:cus_1:" + step).status()).isEqualTo(OperationStatus.COMPLETED);
    }
}
