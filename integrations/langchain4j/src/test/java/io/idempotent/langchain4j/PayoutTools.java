package io.idempotent.langchain4j;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.invocation.InvocationParameters;
import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;

/** A LangChain4j tool that a person approves before each payout runs; the step comes from the parameters. */
public class PayoutTools {

    private final PaymentProvider provider;

    public PayoutTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @Tool("Pay a supplier's invoice")
    @IdempotentTool(key = "payout:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "lc4j_payout", approval = Approval.REQUIRED)
    public Refund payInvoice(String invoiceId, long amountCents, InvocationParameters parameters) {
        return new Refund(provider.refund(OperationContext.current().key(), invoiceId, amountCents), invoiceId,
                amountCents);
    }
}
