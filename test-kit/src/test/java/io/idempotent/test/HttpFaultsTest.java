package io.idempotent.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.test.tools.HttpRefundTools;
import io.idempotent.test.tools.OkHttpRefundTools;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.junit.jupiter.api.Test;

/**
 * The HTTP adapters: tools that call a provider's test server with the JDK {@code HttpClient} or
 * OkHttp keep their contract through the kit's faults, and each fault is the failure the client
 * itself reports, on the right side of the exchange.
 */
class HttpFaultsTest {

    @Test
    void aToolOnTheJdkHttpClientKeepsItsContract() {
        // One server and one client for all cases (each case starts on an empty server): both are slow to start and stop.
        RefundServer server = server();
        HttpClient http = HttpClient.newHttpClient();
        ToolContract<HttpRefundTools> contract = ToolContract.forTool(HttpRefundTools.class, "refund")
                .arguments("invoice_842", 1250L)
                .changedArguments("invoice_842", 9999L)
                .databases(KitDatabase.H2)
                .onDownstream("refund test server", faults -> {
                    server.reset();
                    return Downstream.of(new HttpRefundTools(faults.httpClient(http), server.uri()), server::requests,
                            server::effects);
                });

        List<CaseResult> results;
        try (server) {
            results = contract.runAll();
        }

        assertThat(results).allSatisfy(r -> assertThat(r.passed()).as(r.failureMessage()).isTrue());
        assertThat(results).filteredOn(r -> r.fault() == Fault.REPLY_LOST_TIMEOUT
                && r.test() == FailureTest.FAILURE_AT_THE_EXTERNAL_CALL)
                .singleElement().satisfies(r -> {
                    assertThat(r.requests()).isEqualTo(2);
                    assertThat(r.effects()).isEqualTo(1);
                });
    }

    @Test
    void aToolOnOkHttpKeepsItsContract() {
        RefundServer server = server();
        ToolContract<OkHttpRefundTools> contract = ToolContract.forTool(OkHttpRefundTools.class, "refund")
                .arguments("invoice_842", 1250L)
                .changedArguments("invoice_842", 9999L)
                .databases(KitDatabase.H2)
                .onDownstream("refund test server", faults -> {
                    server.reset();
                    OkHttpClient client = new OkHttpClient.Builder()
                            .addInterceptor(OkHttpFaults.interceptor(faults)).build();
                    return Downstream.of(new OkHttpRefundTools(client, server.uri()), server::requests,
                            server::effects).onClose(() -> {
                                client.dispatcher().executorService().shutdown();
                                client.connectionPool().evictAll();
                            });
                });

        List<CaseResult> results;
        try (server) {
            results = contract.runAll();
        }

        assertThat(results).allSatisfy(r -> assertThat(r.passed()).as(r.failureMessage()).isTrue());
    }

    @Test
    void theJdkClientFailsBeforeTheSendWithoutReachingTheServerAndAfterTheCommitWithTheServerCommitted()
            throws Exception {
        try (RefundServer server = server()) {
            FaultPlan plan = new FaultPlan();
            HttpClient client = new Faults(plan).httpClient(HttpClient.newHttpClient());
            HttpRequest request = HttpRequest.newBuilder(server.uri().resolve("/refunds"))
                    .header("Idempotency-Key", "k1").POST(HttpRequest.BodyPublishers.ofString("x")).build();

            plan.arm(Fault.TIMEOUT_BEFORE_SEND);
            assertThatThrownBy(() -> client.send(request, HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(HttpConnectTimeoutException.class);
            assertThat(server.requests()).isZero();

            plan.arm(Fault.CONNECTION_REFUSED);
            assertThatThrownBy(() -> client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).join())
                    .hasCauseInstanceOf(ConnectException.class);
            assertThat(server.requests()).isZero();

            plan.arm(Fault.REPLY_LOST_TIMEOUT);
            assertThatThrownBy(() -> client.send(request, HttpResponse.BodyHandlers.ofString()))
                    .isExactlyInstanceOf(HttpTimeoutException.class);
            assertThat(server.effects()).isEqualTo(1);

            plan.arm(Fault.CONNECTION_RESET_AFTER_COMMIT);
            assertThatThrownBy(() -> client.send(request, HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(SocketException.class).hasMessageContaining("Connection reset");
            assertThat(server.requests()).isEqualTo(2);
            assertThat(client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void okHttpFailsLikeOkHttpOnBothSidesOfTheExchange() throws Exception {
        try (RefundServer server = server()) {
            FaultPlan plan = new FaultPlan();
            OkHttpClient client = new OkHttpClient.Builder().addInterceptor(OkHttpFaults.interceptor(new Faults(plan)))
                    .build();
            Request request = new Request.Builder().url(server.uri().resolve("/refunds").toString())
                    .header("Idempotency-Key", "k1").post(okhttp3.RequestBody.create("x", null)).build();

            plan.arm(Fault.CONNECTION_REFUSED);
            assertThatThrownBy(() -> client.newCall(request).execute()).isInstanceOf(ConnectException.class);
            assertThat(server.requests()).isZero();

            plan.arm(Fault.REPLY_LOST_TIMEOUT);
            assertThatThrownBy(() -> client.newCall(request).execute()).isInstanceOf(SocketTimeoutException.class);
            assertThat(server.effects()).isEqualTo(1);
            client.dispatcher().executorService().shutdown();
            client.connectionPool().evictAll();
        }
    }

    @Test
    void aWrappedClientInterfaceGetsTheTransportFailureItDeclaresOrAnUncheckedOne() {
        interface Mailer {
            String send(String to);
        }
        FaultPlan plan = new FaultPlan();
        int[] sent = {0};
        Mailer mailer = new Faults(plan).wrap(Mailer.class, to -> "sent " + (++sent[0]));

        plan.arm(Fault.CONNECTION_RESET_AFTER_COMMIT);
        assertThatThrownBy(() -> mailer.send("a@example.com")).isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(SocketException.class);
        assertThat(sent[0]).isEqualTo(1);
        assertThat(mailer.send("a@example.com")).isEqualTo("sent 2");
    }

    private static RefundServer server() {
        try {
            return new RefundServer();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
