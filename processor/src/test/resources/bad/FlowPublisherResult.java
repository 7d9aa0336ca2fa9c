package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.concurrent.Flow;

public class FlowPublisherResult {
    @IdempotentTool(key = "refunds:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public Flow.Publisher<String> refunds(String invoiceId) { return null; }
}
