package io.idempotent.langchain4j;

import static io.idempotent.langchain4j.ScriptedChatModel.call;
import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.service.AiServices;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.testing.AttachedAgent;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * LangChain4j's compensating actions ({@code @CompensateFor}, newer than LangChain4j 1.11) with an
 * idempotent tool. A class of its own so that the module running the adapter's tests against
 * LangChain4j 1.11 can leave it out (see integrations/langchain4j-1.11-it); like
 * {@link LangChain4jToolCallsIT}, no field or signature names a tool class.
 */
class LangChain4jCompensationIT {

    private static final String REFUND = "{\"invoiceId\":\"inv_1\",\"amountCents\":500}";

    @BeforeAll
    static void attachTheAgent() throws Exception {
        AttachedAgent.attach();
    }

    @Test
    void compensationOnToolErrorsUndoesTheRealRefundWhenTheModelsChangedRepeatIsRefused() {
        PaymentProvider provider = new PaymentProvider();
        ScriptedChatModel model = new ScriptedChatModel();
        String step = "refund-approved-" + UUID.randomUUID();
        Object tools = new CompensatedRefundTools(provider);
        LangChain4jToolCallsIT.Assistant assistant = AiServices.builder(LangChain4jToolCallsIT.Assistant.class)
                .chatModel(model).tools(tools).toolExecutionErrorHandler(new IdempotentToolErrorHandler())
                .compensateOnToolErrors(true).build();
        model.toolCalls(call("call_1", "issueRefund", REFUND))
                .toolCalls(call("call_2", "issueRefund", "{\"invoiceId\":\"inv_1\",\"amountCents\":900}"))
                .says("sorry");

        assistant.chat("refund", InvocationParameters.from(Step.asContext(step)));

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(model.toolResults().get(1)).contains("\"error\":\"conflict\"");
        // The refusal is a tool error to LangChain4j, so it runs the compensation of the refund
        // that did happen: a duplicate the runtime stopped turns into an undo of the real effect.
        assertThat(((CompensatedRefundTools) tools).compensations).hasValue(1);
    }
}
