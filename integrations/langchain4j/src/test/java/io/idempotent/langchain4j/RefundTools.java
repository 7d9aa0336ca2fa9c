package io.idempotent.langchain4j;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.invocation.InvocationParameters;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;

/** LangChain4j tools that are idempotent tools; the step comes from the invocation's parameters. */
public class RefundTools {

    private final PaymentProvider provider;

    public RefundTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @Tool("Refund an invoice")
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "lc4j_refund")
    public Refund issueRefund(String invoiceId, long amountCents, InvocationParameters parameters) {
        return new Refund(provider.refund(OperationContext.current().key(), invoiceId, amountCents), invoiceId,
                amountCents);
    }

    @Tool("Credit a customer")
    @IdempotentTool(key = "credit:{customerId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE, name = "lc4j_credit")
    public Refund issueCredit(String customerId, long amountCents, InvocationContext invocation) {
        return new Refund(provider.refund(OperationContext.current().key(), customerId, amountCents), customerId,
                amountCents);
    }
}
