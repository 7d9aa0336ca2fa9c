package good;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import reactor.core.publisher.Mono;

/** Asynchronous tools: each stores the value of its stage or Mono. */
public class AsyncTools {

    public record Refund(String invoiceId, long amountCents) {
    }

    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public CompletableFuture<Refund> refund(String invoiceId, long amountCents) {
        return CompletableFuture.completedFuture(new Refund(invoiceId, amountCents));
    }

    @IdempotentTool(key = "tags:{customerId}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE)
    public CompletionStage<List<String>> tag(String customerId) {
        return CompletableFuture.completedFuture(List.of(customerId));
    }

    @IdempotentTool(key = "notify:{customerId}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE)
    public Mono<Void> notifyCustomer(String customerId) {
        return Mono.empty();
    }
}
