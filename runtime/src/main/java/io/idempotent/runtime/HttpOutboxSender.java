package io.idempotent.runtime;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * An {@link OutboxSender} over the JDK's {@link HttpClient}: each message is a {@code POST} of its
 * text as JSON to the destination's endpoint, with its {@link OutboxMessage#idempotencyKey()} in
 * the {@code Idempotency-Key} header (and the operation's tool and the message's sequence in
 * {@code X-Idempotent-Tool} and {@code X-Idempotent-Sequence}).
 *
 * <p>How answers count: a 2xx is delivered; a refused connection, {@code 408}, {@code 425},
 * {@code 429} and {@code 503} say the request was not taken ({@link MessageNotDeliveredException}:
 * sent again after a pause); any other status, a timeout or a broken connection leave the outcome
 * unknown (sent again only if {@code deduplicates} is true, otherwise the message awaits an operator).
 * Keep {@code timeout} well below the relay's claim.
 */
public final class HttpOutboxSender implements OutboxSender {

    private final HttpClient client;
    private final Function<String, URI> endpoints;
    private final Duration timeout;
    private final boolean deduplicates;

    /**
     * @param client the client (its connect timeout applies too)
     * @param endpoints the endpoint of each destination name
     * @param timeout how long one request may take
     * @param deduplicates whether the endpoints keep each {@code Idempotency-Key} at most once
     */
    public HttpOutboxSender(HttpClient client, Function<String, URI> endpoints, Duration timeout, boolean deduplicates) {
        this.client = Objects.requireNonNull(client, "client");
        this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.deduplicates = deduplicates;
    }

    @Override
    public void send(OutboxMessage message) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(endpoints.apply(message.destination())).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", message.idempotencyKey())
                .header("X-Idempotent-Tool", message.tool())
                .header("X-Idempotent-Sequence", Integer.toString(message.sequence()))
                .POST(HttpRequest.BodyPublishers.ofString(message.message())).build();
        int status;
        try {
            status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (ConnectException e) {
            throw new MessageNotDeliveredException("connection refused", e);
        }
        if (status >= 200 && status < 300) {
            return;
        }
        if (status == 408 || status == 425 || status == 429 || status == 503) {
            throw new MessageNotDeliveredException("HTTP " + status);
        }
        // The body is not read: an answer's body never reaches the outbox's state or a log.
        throw new IOException("HTTP " + status + " from " + message.destination());
    }

    @Override
    public boolean deduplicates(String destination) {
        return deduplicates;
    }
}
