package io.idempotent.test;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A JDK {@code HttpClient} that sends through a real one: a fault before the send fails the
 * exchange without sending; a fault after the commit sends it (the server commits and answers)
 * and drops the answer, with the exceptions the JDK client throws for the same failures.
 */
final class FaultInjectingHttpClient extends HttpClient {

    private final HttpClient real;
    private final FaultPlan plan;

    FaultInjectingHttpClient(HttpClient real, FaultPlan plan) {
        this.real = real;
        this.plan = plan;
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        String target = request.method() + " " + request.uri();
        plan.beforeSend(target, true);
        HttpResponse<T> response = real.send(request, handler);
        plan.afterCommit(target, true);
        return response;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return sendAsync(request, handler, null);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
            HttpResponse.PushPromiseHandler<T> pushes) {
        String target = request.method() + " " + request.uri();
        try {
            plan.beforeSend(target, true);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<HttpResponse<T>> sent = pushes == null ? real.sendAsync(request, handler)
                : real.sendAsync(request, handler, pushes);
        return sent.thenCompose(response -> {
            try {
                plan.afterCommit(target, true);
                return CompletableFuture.completedFuture(response);
            } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return real.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return real.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return real.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return real.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return real.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return real.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return real.authenticator();
    }

    @Override
    public Version version() {
        return real.version();
    }

    @Override
    public Optional<Executor> executor() {
        return real.executor();
    }
}
