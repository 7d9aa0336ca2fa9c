package io.idempotent.langchain4j;

import static io.idempotent.langchain4j.ScriptedChatModel.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.UserMessage;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.testing.AttachedAgent;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real LangChain4j AiServices with the agent attached and a scripted model.
 *
 * <p>No field or signature of this class names a tool class: JUnit would load it before the agent
 * attaches, and a tool class retransformed after loading loses its {@code -parameters} names on
 * JDK 17, which LangChain4j needs to bind the model's arguments (see docs/frameworks.md).
 */
class LangChain4jToolCallsIT {

    /** The AI service; the step travels in InvocationParameters. */
    interface Assistant {
        String chat(@UserMessage String message, InvocationParameters parameters);
    }

    private static final String REFUND = "{\"invoiceId\":\"inv_1\",\"amountCents\":500}";

    private PaymentProvider provider;
    private ScriptedChatModel model;
    private String step;

    @BeforeAll
    static void attachTheAgent() throws Exception {
        AttachedAgent.attach();
    }

    @BeforeEach
    void setUp() {
        provider = new PaymentProvider();
        model = new ScriptedChatModel();
        step = "refund-approved-" + UUID.randomUUID();
    }

    private Assistant assistant(boolean concurrently) {
        AiServices<Assistant> builder = AiServices.builder(Assistant.class).chatModel(model)
                .tools(new RefundTools(provider))
                .toolExecutionErrorHandler(new IdempotentToolErrorHandler());
        return (concurrently ? builder.executeToolsConcurrently() : builder).build();
    }

    @Test
    void twoIdenticalToolRequestsInOneMessageRunConcurrentlyAndMakeOneEffect() {
        model.toolCalls(call("call_1", "issueRefund", REFUND), call("call_2", "issueRefund", REFUND)).says("done");

        String answer = assistant(true).chat("refund inv_1", InvocationParameters.from(Step.asContext(step)));

        assertThat(answer).isEqualTo("done");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
        assertThat(provider.threads()).noneMatch(t -> t.equals(Thread.currentThread().getName()));
        // One call ran; the other replayed it, or was told to call again later: never a second effect.
        assertThat(model.toolResults()).hasSize(2).anyMatch(r -> r.contains("re_1_inv_1_500"))
                .allMatch(r -> r.contains("re_1_inv_1_500") || r.contains("\"error\":\"retry_later\""));
        assertThat(IdempotentRuntime.global().operations().find("lc4j_refund", "refund:" + step).orElseThrow().status())
                .isEqualTo(OperationStatus.COMPLETED);
    }

    @Test
    void aToolWithAnInvocationContextReplaysAcrossTwoChatsWithTheSameStep() {
        String credit = "{\"customerId\":\"cus_1\",\"amountCents\":300}";
        model.toolCalls(call("call_1", "issueCredit", credit)).says("credited")
                .toolCalls(call("call_9", "issueCredit", credit)).says("credited again");
        Assistant assistant = assistant(false);

        assistant.chat("credit cus_1", InvocationParameters.from(Step.asContext(step)));
        // A new chat() has a new random invocationId: it is context, not payload, so no conflict.
        assistant.chat("credit cus_1 again", InvocationParameters.from(Step.asContext(step)));

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
        assertThat(model.toolResults()).hasSize(2);
        assertThat(model.toolResults().get(1)).isEqualTo(model.toolResults().get(0)).contains("re_1_cus_1_300");
    }

    @Test
    void changedArgumentsUnderTheSameStepAreAConflictForTheModel() {
        model.toolCalls(call("call_1", "issueRefund", REFUND))
                .toolCalls(call("call_2", "issueRefund", "{\"invoiceId\":\"inv_1\",\"amountCents\":900}"))
                .says("sorry");

        assertThat(assistant(false).chat("refund", InvocationParameters.from(Step.asContext(step))))
                .isEqualTo("sorry");

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(model.toolResults().get(1)).isEqualTo("{\"error\":\"conflict\",\"tool\":\"lc4j_refund\","
                + "\"message\":\"this decision was already executed with different arguments: do not retry with"
                + " changed arguments\"}");
    }

    @Test
    void withoutTheHandlerTheModelReadsTheRuntimesMessage() {
        // Why the handler must be installed (docs/frameworks.md): LangChain4j's default answers with the message.
        model.toolCalls(call("call_1", "issueRefund", REFUND))
                .toolCalls(call("call_2", "issueRefund", "{\"invoiceId\":\"inv_1\",\"amountCents\":900}"))
                .says("sorry");

        AiServices.builder(Assistant.class).chatModel(model).tools(new RefundTools(provider)).build()
                .chat("refund", InvocationParameters.from(Step.asContext(step)));

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(model.toolResults().get(1)).startsWith("tool lc4j_refund, key refund:" + step
                + ": the operation key was already used with a different payload");
    }

    @Test
    void aToolAwaitingApprovalTellsTheModelToWaitWithTheSameArgumentsThenThatItWasDenied() {
        String payout = "{\"invoiceId\":\"inv_7\",\"amountCents\":90000}";
        model.toolCalls(call("call_1", "payInvoice", payout)).toolCalls(call("call_2", "payInvoice", payout))
                .says("waiting").toolCalls(call("call_3", "payInvoice", payout)).says("denied");
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).tools(new PayoutTools(provider))
                .toolExecutionErrorHandler(new IdempotentToolErrorHandler()).build();

        assertThat(assistant.chat("pay inv_7", InvocationParameters.from(Step.asContext(step)))).isEqualTo("waiting");
        PendingApproval pending = IdempotentRuntime.global().approvals().pending("default", "lc4j_payout", 0, 100)
                .stream().filter(p -> p.key().equals("payout:" + step)).findFirst().orElseThrow();
        IdempotentRuntime.global().approvals().deny("lc4j_payout", "payout:" + step, pending.payloadHash(), "alice",
                "over the supplier's limit");
        assertThat(assistant.chat("pay inv_7 now", InvocationParameters.from(Step.asContext(step))))
                .isEqualTo("denied");

        String waiting = "{\"error\":\"approval_pending\",\"tool\":\"lc4j_payout\",\"message\":\"the decision"
                + " waits for a person's approval: do not re-plan and do not change the arguments, call again later with"
                + " the same arguments\"}";
        assertThat(model.toolResults()).containsExactly(waiting, waiting, "{\"error\":\"approval_denied\",\"tool\":"
                + "\"lc4j_payout\",\"message\":\"a person denied this decision: do not retry, and do not try another"
                + " way to do the same thing\"}");
        assertThat(provider.requests()).isZero();
        assertThat(IdempotentRuntime.global().operations().find("lc4j_payout", "payout:" + step).orElseThrow().status())
                .isEqualTo(OperationStatus.DENIED);
    }

    @Test
    void aMissingStepIsAConfigurationErrorThatFailsTheTurn() {
        model.toolCalls(call("call_1", "issueRefund", REFUND)).says("unreachable");

        assertThatThrownBy(() -> assistant(false).chat("refund", new InvocationParameters()))
                .isInstanceOf(MissingOperationKeyException.class);
        assertThat(provider.requests()).isZero();
    }

    @Test
    void stepFromInvocationParametersOpensTheStepForAToolWithoutAContextParameter() throws Exception {
        Object tools = new PlainCreditTools(provider);
        java.lang.reflect.Method method = tools.getClass().getMethod("issueCredit", String.class, long.class);
        java.util.Map<dev.langchain4j.agent.tool.ToolSpecification, dev.langchain4j.service.tool.ToolExecutor> map =
                java.util.Map.of(dev.langchain4j.agent.tool.ToolSpecifications.toolSpecificationFrom(method),
                        StepFromInvocationParameters.wrap(new dev.langchain4j.service.tool.DefaultToolExecutor(tools,
                                method)));
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).tools(map)
                .toolExecutionErrorHandler(new IdempotentToolErrorHandler()).executeToolsConcurrently().build();
        String credit = "{\"customerId\":\"cus_2\",\"amountCents\":300}";
        model.toolCalls(call("call_1", "issueCredit", credit)).says("ok").toolCalls(call("call_2", "issueCredit", credit))
                .says("ok again");

        assistant.chat("credit", InvocationParameters.from(Step.asContext(step)));
        assistant.chat("credit again", InvocationParameters.from(Step.asContext(step)));

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(provider.requests()).isEqualTo(1);
        assertThat(model.toolResults()).hasSize(2).allMatch(r -> r.contains("re_1_cus_2_300"));
    }

    @Test
    void aHandBuiltExecutorGivesTheModelTheRefusalNotTheRuntimesMessage() throws Exception {
        Object tools = new PlainCreditTools(provider);
        java.lang.reflect.Method method = tools.getClass().getMethod("issueCredit", String.class, long.class);
        model.toolCalls(call("call_1", "issueCredit", "{\"customerId\":\"cus_3\",\"amountCents\":300}"))
                .toolCalls(call("call_2", "issueCredit", "{\"customerId\":\"cus_3\",\"amountCents\":900}"))
                .says("sorry");

        handBuilt(IdempotentToolExecutor.of(tools, method), method)
                .chat("credit", InvocationParameters.from(Step.asContext(step)));

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(model.toolResults()).hasSize(2);
        assertThat(model.toolResults().get(0)).isEqualTo("re_1_cus_3_300");
        assertThat(model.toolResults().get(1)).isEqualTo("{\"error\":\"conflict\",\"tool\":\"lc4j_plain_credit\","
                + "\"message\":\"this decision was already executed with different arguments: do not retry with"
                + " changed arguments\"}");
    }

    @Test
    void anExecutorCalledWithoutAiServicesAnswersWithTheRefusal() throws Exception {
        Object tools = new PlainCreditTools(provider);
        java.lang.reflect.Method method = tools.getClass().getMethod("issueCredit", String.class, long.class);
        dev.langchain4j.service.tool.ToolExecutor executor = IdempotentToolExecutor.of(tools, method);

        try (Step ignored = Step.begin(step)) {
            assertThat(executor.execute(call("call_1", "issueCredit", "{\"customerId\":\"cus_6\",\"amountCents\":300}"),
                    "memory-1")).isEqualTo("re_1_cus_6_300");
            assertThat(executor.execute(call("call_2", "issueCredit", "{\"customerId\":\"cus_6\",\"amountCents\":900}"),
                    "memory-1")).startsWith("{\"error\":\"conflict\",\"tool\":\"lc4j_plain_credit\"");
        }
        assertThat(provider.effects()).isEqualTo(1);
    }

    @Test
    void aHandBuiltExecutorThrowsAConfigurationErrorSoTheTurnFails() throws Exception {
        Object tools = new PlainCreditTools(provider);
        java.lang.reflect.Method method = tools.getClass().getMethod("issueCredit", String.class, long.class);
        model.toolCalls(call("call_1", "issueCredit", "{\"customerId\":\"cus_5\",\"amountCents\":300}"))
                .says("unreachable");

        assertThatThrownBy(() -> handBuilt(IdempotentToolExecutor.of(tools, method), method)
                .chat("credit", new InvocationParameters()))
                .isInstanceOf(MissingOperationKeyException.class);
        assertThat(provider.requests()).isZero();
    }

    @Test
    void langChain4jsOwnHandBuiltExecutorHidesTheFailureFromTheHandlerAndTheModelReadsTheRuntimesMessage()
            throws Exception {
        // Why IdempotentToolExecutor exists (docs/frameworks.md): the handler on AiServices never runs.
        Object tools = new PlainCreditTools(provider);
        java.lang.reflect.Method method = tools.getClass().getMethod("issueCredit", String.class, long.class);
        model.toolCalls(call("call_1", "issueCredit", "{\"customerId\":\"cus_4\",\"amountCents\":300}"))
                .toolCalls(call("call_2", "issueCredit", "{\"customerId\":\"cus_4\",\"amountCents\":900}"))
                .says("sorry");

        handBuilt(new dev.langchain4j.service.tool.DefaultToolExecutor(tools, method), method)
                .chat("credit", InvocationParameters.from(Step.asContext(step)));

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(model.toolResults().get(1)).startsWith("tool lc4j_plain_credit, key plain-credit:cus_4:" + step
                + ": the operation key was already used with a different payload");
    }

    /** An AI service whose one tool runs through {@code executor}, with the library's handler installed. */
    private Assistant handBuilt(dev.langchain4j.service.tool.ToolExecutor executor, java.lang.reflect.Method method) {
        return AiServices.builder(Assistant.class).chatModel(model)
                .tools(java.util.Map.of(dev.langchain4j.agent.tool.ToolSpecifications.toolSpecificationFrom(method),
                        StepFromInvocationParameters.wrap(executor)))
                .toolExecutionErrorHandler(new IdempotentToolErrorHandler()).build();
    }

    @Test
    void aCglibProxiedToolBeanHasNoToolsForLangChain4jButItsTargetHas() {
        org.springframework.aop.framework.ProxyFactory factory = new org.springframework.aop.framework.ProxyFactory(
                new RefundTools(provider));
        factory.setProxyTargetClass(true);
        Object proxy = factory.getProxy();
        model.toolCalls(call("call_1", "issueRefund", REFUND)).says("done");

        // LangChain4j looks for @Tool on the proxy's own class, whose overrides carry no annotations.
        assertThatThrownBy(() -> AiServices.builder(Assistant.class).chatModel(model).tools(proxy)
                .toolExecutionErrorHandler(new IdempotentToolErrorHandler()).build()
                .chat("refund", InvocationParameters.from(Step.asContext(step))))
                .isInstanceOf(dev.langchain4j.service.IllegalConfigurationException.class)
                .hasMessageContaining("does not have any methods annotated with @Tool");
        assertThat(provider.requests()).isZero();

        Object target = org.springframework.aop.framework.AopProxyUtils.getSingletonTarget(proxy);
        model.toolCalls(call("call_2", "issueRefund", REFUND)).says("done");
        assertThat(AiServices.builder(Assistant.class).chatModel(model).tools(target)
                .toolExecutionErrorHandler(new IdempotentToolErrorHandler()).build()
                .chat("refund", InvocationParameters.from(Step.asContext(step)))).isEqualTo("done");
        assertThat(provider.effects()).isEqualTo(1);
    }
}
