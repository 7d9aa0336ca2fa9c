package io.idempotent.test.tools;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import io.idempotent.test.ProviderDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@link GoodTools}' honest answers as asynchronous tools: the value arrives on a thread of the
 * tool's own (a client's I/O thread), not on the thread that called the method.
 */
public class AsyncGoodTools {

    /** The client's own threads, as an HTTP client's I/O threads are. */
    private static final Executor CLIENT_THREADS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "kit-async-client");
        t.setDaemon(true);
        return t;
    });

    private final PaymentClient payments;
    private final ProviderDouble mail;

    /** Tools on a payment client and a mail double. */
    public AsyncGoodTools(PaymentClient payments, ProviderDouble mail) {
        this.payments = payments;
        this.mail = mail;
    }

    /** The downstream deduplicates the key: an uncertain refund is re-sent under it. */
    @IdempotentTool(key = "refund:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, name = "kit_refund_later")
    public CompletableFuture<Receipt> refundLater(String invoiceId, long cents) {
        String key = OperationContext.current().key(); // before the value is awaited, where the context holds
        return CompletableFuture.supplyAsync(() -> new Receipt(payments.refund(invoiceId, cents, key), key),
                CLIENT_THREADS);
    }

    /** A person settles what is uncertain; the effect boundary is marked before the message leaves. */
    @IdempotentTool(key = "notify:{userId}", downstreamKey = false, reconciler = io.idempotent.runtime.ManualReview.class,
            retry = Retry.SAFE, effectBoundary = EffectBoundary.MARKED, name = "kit_notify_mono")
    public Mono<Receipt> notifyMono(String userId, String text) {
        OperationContext op = OperationContext.current();
        String key = op.key();
        op.effectStarting("sms:" + key);
        return Mono.fromCallable(() -> mail.request(key, () -> new Receipt("sms-" + userId + "-" + text.length(), key)))
                .subscribeOn(Schedulers.boundedElastic());
    }
}
