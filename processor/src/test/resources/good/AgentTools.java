package good;

import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.invocation.InvocationParameters;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import org.springframework.ai.chat.model.ToolContext;

/** Tools that take the agent frameworks' context parameters. */
public class AgentTools {

    /** A workflow's own parameters type. */
    public static class RefundParameters extends InvocationParameters {
        public RefundParameters(Map<String, Object> map) {
            super(map);
        }
    }

    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String springRefund(String invoiceId, long amountCents, ToolContext toolContext) {
        return "refunded " + invoiceId;
    }

    @IdempotentTool(key = "refund:{invoiceId}:{context.approvalId}", downstreamKey = true,
            downstreamRetention = "P1D", retry = Retry.SAFE)
    public String approvedRefund(String invoiceId, InvocationContext invocation, @ToolMemoryId Object memoryId) {
        return "refunded " + invoiceId;
    }

    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String parametersRefund(String invoiceId, RefundParameters parameters) {
        return "refunded " + invoiceId;
    }

    @IdempotentTool(key = "mcp-refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String mcpRefund(McpTransportContext transport, McpSchema.CallToolRequest request) {
        return "refunded";
    }
}
