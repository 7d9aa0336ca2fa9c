package io.idempotent.langchain4j;

import dev.langchain4j.agent.tool.CompensateFor;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.service.tool.ToolExecution;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import java.util.concurrent.atomic.AtomicInteger;

/** A refund tool with a LangChain4j compensating action, which undoes a refund when a later tool errs. */
public class CompensatedRefundTools {

    private final PaymentProvider provider;
    final AtomicInteger compensations = new AtomicInteger();

    public CompensatedRefundTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @Tool("Refund an invoice")
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "lc4j_compensated_refund")
    public String issueRefund(String invoiceId, long amountCents, InvocationParameters parameters) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }

    @CompensateFor("issueRefund")
    public void undoRefund(ToolExecution execution) {
        compensations.incrementAndGet();
    }
}
