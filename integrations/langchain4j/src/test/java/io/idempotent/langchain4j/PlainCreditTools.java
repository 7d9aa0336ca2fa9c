package io.idempotent.langchain4j;

import dev.langchain4j.agent.tool.Tool;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;

/** A tool without a context parameter: its {step} needs StepFromInvocationParameters. */
public class PlainCreditTools {

    private final PaymentProvider provider;

    public PlainCreditTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @Tool("Credit a customer")
    @IdempotentTool(key = "plain-credit:{customerId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE, name = "lc4j_plain_credit")
    public String issueCredit(String customerId, long amountCents) {
        return provider.refund(OperationContext.current().key(), customerId, amountCents);
    }
}
