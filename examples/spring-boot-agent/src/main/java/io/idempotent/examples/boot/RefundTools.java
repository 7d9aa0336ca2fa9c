package io.idempotent.examples.boot;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * A Spring AI tool that is an idempotent tool. The operation key is the workflow's decision,
 * read from the ToolContext ({@code Step.asContext(...)}), never from the model. The bean is
 * {@code @Transactional}, so Spring proxies it with CGLIB: the agent wraps this class's method
 * once (the proxy subclass carries no annotation), and the operation record is written through
 * the runtime's own connection, so it neither commits nor rolls back with the business
 * transaction.
 */
@Component
public class RefundTools {

    private final PaymentProvider provider;
    private final JdbcTemplate jdbc;

    public RefundTools(PaymentProvider provider, JdbcTemplate jdbc) {
        this.provider = provider;
        this.jdbc = jdbc;
    }

    @Tool(description = "Refund an invoice, in cents")
    @Transactional
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "issue_refund")
    public Refund issueRefund(String invoiceId, long amountCents, ToolContext toolContext) {
        jdbc.update("insert into refund_log(invoice_id, amount_cents) values (?, ?)", invoiceId, amountCents);
        String id = provider.refund(OperationContext.current().key(), invoiceId, amountCents);
        return new Refund(id, invoiceId, amountCents);
    }
}
