package io.idempotent.springai;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.annotation.Tool;

/** Spring AI tools that are idempotent tools: the step comes from the ToolContext. */
public class RefundTools {

    private final PaymentProvider provider;

    public RefundTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @Tool(description = "Refund an invoice")
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "spring_ai_refund")
    public Refund issueRefund(String invoiceId, long amountCents, ToolContext toolContext) {
        String id = provider.refund(OperationContext.current().key(), invoiceId, amountCents);
        return new Refund(id, invoiceId, amountCents, Thread.currentThread().getName());
    }
}
