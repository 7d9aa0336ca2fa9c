package io.idempotent.test.tools;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import java.io.IOException;
import java.net.URI;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/** The same refund tool on OkHttp. */
public class OkHttpRefundTools {

    private final OkHttpClient http;
    private final URI provider;

    /** Tools on {@code provider}, called with {@code http}. */
    public OkHttpRefundTools(OkHttpClient http, URI provider) {
        this.http = http;
        this.provider = provider;
    }

    /** Refunds over HTTP; the provider deduplicates the Idempotency-Key header. */
    @IdempotentTool(key = "okhttp-refund:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, name = "kit_okhttp_refund")
    public Receipt refund(String invoiceId, long cents) throws IOException {
        String key = OperationContext.current().key();
        Request request = new Request.Builder().url(provider.resolve("/refunds").toString())
                .header("Idempotency-Key", key)
                .post(RequestBody.create(invoiceId + ":" + cents, MediaType.get("text/plain"))).build();
        try (Response response = http.newCall(request).execute()) {
            if (response.code() != 200) {
                throw new IOException("provider answered HTTP " + response.code());
            }
            return new Receipt(response.body().string(), key);
        }
    }
}
