package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import org.springframework.ai.chat.model.ToolContext;

public class KeyPlaceholderOnlyContext {
    @IdempotentTool(key = "ping:{target}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String ping(ToolContext toolContext) { return "pong"; }
}
