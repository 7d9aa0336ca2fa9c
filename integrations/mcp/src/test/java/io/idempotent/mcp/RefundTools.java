package io.idempotent.mcp;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Mono;

/** The server's idempotent tool; its {step} is the one IdempotentMcp opens from the request's _meta. */
public class RefundTools {

    private final PaymentProvider provider;

    public RefundTools(PaymentProvider provider) {
        this.provider = provider;
    }

    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_refund")
    public String issueRefund(String invoiceId, long amountCents) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }

    /**
     * The same refund for a handler that runs it on another thread ({@code subscribeOn}): the step
     * comes from the request's {@code _meta}, which this context parameter carries.
     */
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_refund_from_request")
    public String issueRefund(String invoiceId, long amountCents, CallToolRequest request) {
        return provider.refund(OperationContext.current().key(), invoiceId, amountCents);
    }

    /** The refund as an asynchronous tool returning a Mono: claimed when the server subscribes. */
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_refund_mono")
    public Mono<String> refundMono(String invoiceId, long amountCents) {
        String key = OperationContext.current().key();
        return Mono.fromCallable(() -> provider.refund(key, invoiceId, amountCents));
    }

    /** The refund as an asynchronous tool returning a CompletableFuture: claimed when it is called. */
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_refund_future")
    public CompletableFuture<String> refundFuture(String invoiceId, long amountCents) {
        String key = OperationContext.current().key();
        return CompletableFuture.supplyAsync(() -> provider.refund(key, invoiceId, amountCents));
    }

    /** The Mono refund reading {step} from its request too: then Reactor's Context, then the thread. */
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_refund_mono_from_request")
    public Mono<String> refundMono(String invoiceId, long amountCents, CallToolRequest request) {
        String key = OperationContext.current().key();
        return Mono.fromCallable(() -> provider.refund(key, invoiceId, amountCents));
    }

    /** The future refund reading {step} from its request too: then the thread, when it is called. */
    @IdempotentTool(key = "refund:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "mcp_refund_future_from_request")
    public CompletableFuture<String> refundFuture(String invoiceId, long amountCents, CallToolRequest request) {
        String key = OperationContext.current().key();
        return CompletableFuture.supplyAsync(() -> provider.refund(key, invoiceId, amountCents));
    }
}
