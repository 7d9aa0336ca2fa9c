package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import org.reactivestreams.Publisher;

public class PublisherResult {
    @IdempotentTool(key = "refunds:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public Publisher<String> refunds(String invoiceId) { return null; }
}
