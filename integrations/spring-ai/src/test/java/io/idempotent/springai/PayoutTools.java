package io.idempotent.springai;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.annotation.Tool;

/** A Spring AI tool that a person approves before each payout runs; the step comes from the ToolContext. */
public class PayoutTools {

    private final PaymentProvider provider;

    public PayoutTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @Tool(description = "Pay a supplier's invoice")
    @IdempotentTool(key = "payout:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "spring_ai_payout", approval = Approval.REQUIRED)
    public Refund payInvoice(String invoiceId, long amountCents, ToolContext toolContext) {
        String id = provider.refund(OperationContext.current().key(), invoiceId, amountCents);
        return new Refund(id, invoiceId, amountCents, Thread.currentThread().getName());
    }
}
