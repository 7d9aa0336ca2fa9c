package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.concurrent.CompletableFuture;

public class AsyncResult {
    /** A future of its own: the agent could not return the runtime's CompletableFuture in its place. */
    public static class RefundFuture extends CompletableFuture<String> {
    }

    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public RefundFuture refund(String invoiceId) { return null; }
}
