package io.idempotent.test.tools;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** A refund tool that calls its payment provider over HTTP with the JDK client, the key in a header. */
public class HttpRefundTools {

    private final HttpClient http;
    private final URI provider;

    /** Tools on {@code provider}, called with {@code http}. */
    public HttpRefundTools(HttpClient http, URI provider) {
        this.http = http;
        this.provider = provider;
    }

    /** Refunds over HTTP; the provider deduplicates the Idempotency-Key header. */
    @IdempotentTool(key = "http-refund:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, name = "kit_http_refund")
    public Receipt refund(String invoiceId, long cents) throws IOException, InterruptedException {
        String key = OperationContext.current().key();
        HttpRequest request = HttpRequest.newBuilder(provider.resolve("/refunds"))
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(invoiceId + ":" + cents)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("provider answered HTTP " + response.statusCode());
        }
        return new Receipt(response.body(), key);
    }
}
