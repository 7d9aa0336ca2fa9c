package io.idempotent.springai;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import org.springframework.ai.tool.annotation.Tool;

/** A tool without a ToolContext parameter: its {step} comes from StepFromToolContext. */
public class CreditTools {

    private final PaymentProvider provider;

    public CreditTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @Tool(description = "Credit a customer")
    @IdempotentTool(key = "credit:{customerId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE, name = "spring_ai_credit")
    public Refund issueCredit(String customerId, long amountCents) {
        String id = provider.refund(OperationContext.current().key(), customerId, amountCents);
        return new Refund(id, customerId, amountCents, Thread.currentThread().getName());
    }
}
