package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import reactor.core.publisher.Flux;

public class FluxResult {
    @IdempotentTool(key = "refunds:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public Flux<String> refunds(String invoiceId) { return null; }
}
