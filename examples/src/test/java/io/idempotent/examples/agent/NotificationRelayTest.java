package io.idempotent.examples.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.idempotent.examples.providers.Ledger;
import io.idempotent.examples.providers.Providers;
import io.idempotent.examples.tools.CreditTools;
import io.idempotent.examples.tools.LedgerLine;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OutboxRelay;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.internal.BindingRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The credit tool and the relay of docs/outbox.md end to end: the first answer of the notification
 * service is lost (a 504 after it kept the message), so the relay sends it again with the same
 * {@code Idempotency-Key}; the service's own deduplication keeps one notification, the ledger
 * one line, and a repeated call replays without sending anything again.
 */
class NotificationRelayTest {

    @TempDir
    Path dir;

    @Test
    void theCreditIsBookedOnceAndTheCustomerNotifiedOnceDespiteALostAnswer() throws Exception {
        List<String> keys = new CopyOnWriteArrayList<>();
        List<String> bodies = new CopyOnWriteArrayList<>();
        AtomicInteger hits = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/notifications", exchange -> {
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (!keys.contains(key)) {
                keys.add(key);
                bodies.add(body);
            }
            // The first request's answer is lost behind a gateway, after the service kept it.
            exchange.sendResponseHeaders(hits.incrementAndGet() == 1 ? 504 : 202, -1);
            exchange.close();
        });
        server.start();
        Providers providers = Providers.open(dir);
        CreditTools tools = new CreditTools(new Ledger(providers.database(), providers.faults()));
        ToolBinding binding = BindingRegistry.find(CreditTools.class,
                "bookCredit(Ljava/lang/String;J)Lio/idempotent/examples/tools/LedgerLine;");
        try (AutoCloseable open = providers.database().keepOpen();
                IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", "jdbc:h2:mem:credit-"
                        + System.nanoTime() + ";DB_CLOSE_DELAY=-1", "sa", "").build()) {
            LedgerLine first;
            LedgerLine repeat;
            try (Step step = Step.begin("goodwill_3")) {
                Object[] args = {"invoice_842", 500L};
                first = runtime.call(binding, args, () -> tools.bookCredit("invoice_842", 500L));
                repeat = runtime.call(binding, args, () -> tools.bookCredit("invoice_842", 500L));
            }
            assertThat(repeat).isEqualTo(first);
            assertThat(runtime.outbox().counts("default").pending()).isEqualTo(1);

            URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/notifications");
            // The relay as the page shows it, with short pauses for the test.
            try (OutboxRelay relay = NotificationRelay.start(runtime, endpoint)) {
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (runtime.outbox().counts("default").delivered() < 1 && System.nanoTime() < deadline) {
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
                }
            }
            assertThat(runtime.outbox().counts("default").delivered()).isEqualTo(1);
        } finally {
            server.stop(0);
        }
        assertThat(hits.get()).isEqualTo(2);
        assertThat(keys).containsExactly("credit:invoice_842:goodwill_3");
        assertThat(bodies).containsExactly("{\"invoice\":\"invoice_842\",\"creditCents\":500}");
        assertThat(providers.database().count("ledger", "effect")).isEqualTo(1);
    }
}
