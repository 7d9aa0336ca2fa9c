package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.Iterator;
import reactor.core.publisher.Mono;

public class MonoResult {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public Mono<Iterator<String>> refund(String invoiceId) { return null; }
}
