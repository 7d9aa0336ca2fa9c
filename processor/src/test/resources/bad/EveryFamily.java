package bad;

import dev.langchain4j.invocation.InvocationParameters;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import org.springframework.ai.chat.model.ToolContext;

/** One tool with a problem of every rule family, to pin the order in which they are reported. */
public class EveryFamily {
    @IdempotentTool(key = "refund:{invoice}:{invoiceId.size}:{step}:{context.approvalId}",
            downstreamKey = false,
            retry = Retry.UNCERTAIN,
            reconciler = String.class,
            lease = "thirty seconds",
            retention = "P36526D",
            notAppliedOn = Exception.class,
            store = "billing.eu",
            name = "   ")
    private Object refund(java.sql.Connection connection, String invoiceId, String step, ToolContext toolContext,
            InvocationParameters parameters, NoSuchReceipt receipt) {
        return null;
    }
}
