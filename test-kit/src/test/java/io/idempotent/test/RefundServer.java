package io.idempotent.test;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A payment provider's test server on the JDK's HTTP server: POST /refunds with an
 * Idempotency-Key header; the first answer per key is kept and returned to repeats. Counts
 * requests and effects.
 */
final class RefundServer implements AutoCloseable {

    private final HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger effects = new AtomicInteger();
    private final Map<String, String> answers = new ConcurrentHashMap<>();

    RefundServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/refunds", exchange -> {
            requests.incrementAndGet();
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String answer = answers.computeIfAbsent(key, k -> {
                effects.incrementAndGet();
                return "re_" + Math.abs((k + body).hashCode());
            });
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    /** Forgets every request, answer and count: a new provider for the next case. */
    void reset() {
        answers.clear();
        requests.set(0);
        effects.set(0);
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    long requests() {
        return requests.get();
    }

    long effects() {
        return effects.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
