package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TcpProxy;
import io.idempotent.runtime.testing.TestDatabase;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.h2.tools.Server;

/**
 * The runtime's own pool recovers by itself once the database answers again, whatever moment a
 * connection died at. HikariCP learns the transaction isolation from the first connection it
 * sets up; when that connection dies during the set-up, a pool without an explicit isolation
 * records -1 and sets it on every later connection, which the drivers refuse, so the store
 * would stay unavailable for the life of the JVM (brettwooldridge/HikariCP#1944).
 */
class StoreRecoveryTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final String KEY = "refund:invoice_842:approved_17";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842", "amountCents", 1250);
    private static final Pattern HOST_PORT = Pattern.compile("^jdbc:postgresql://([^:/]+):(\\d+)(/.*)$");

    @OnBothDatabases
    void theStoreRecoversWhenThePoolsFirstConnectionDiesWhileItIsSetUp(TestDatabase db) throws SQLException {
        Server h2 = db.kind() == Database.H2 ? Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start() : null;
        try (TcpProxy proxy = proxyFor(db, h2)) {
            // Hikari asks the first connection for its isolation level right after opening it.
            proxy.dropFirstConnectionSending("ISOLATION");
            IdempotentRuntime runtime = db.track(IdempotentRuntime.builder()
                    .store("default", throughProxy(db, proxy), db.user(), db.password()).build());
            FakeProvider provider = new FakeProvider();

            String result = firstSuccess(() -> runtime.call(REFUND, KEY, PAYLOAD, String.class,
                    () -> provider.apply(KEY, "refund 1250")), Duration.ofSeconds(20));

            assertThat(proxy.dropped()).as("connections dropped during set-up").isEqualTo(1);
            assertThat(result).isEqualTo("done:refund 1250");
            assertThat(runtime.call(REFUND, KEY, PAYLOAD, String.class, () -> provider.apply(KEY, "again")))
                    .isEqualTo(result);
            assertThat(provider.invocations()).isEqualTo(1);
            assertThat(db.status(KEY)).isEqualTo("completed");
        } finally {
            if (h2 != null) {
                h2.stop();
            }
        }
    }

    private static TcpProxy proxyFor(TestDatabase db, Server h2) {
        if (h2 != null) {
            return new TcpProxy("127.0.0.1", h2.getPort());
        }
        Matcher m = HOST_PORT.matcher(db.url());
        if (!m.matches()) {
            throw new AssertionError("unexpected URL " + db.url());
        }
        return new TcpProxy(m.group(1), Integer.parseInt(m.group(2)));
    }

    private static String throughProxy(TestDatabase db, TcpProxy proxy) {
        if (db.kind() == Database.H2) {
            return "jdbc:h2:tcp://127.0.0.1:" + proxy.port() + "/" + db.url().substring("jdbc:h2:".length());
        }
        Matcher m = HOST_PORT.matcher(db.url());
        m.matches();
        return "jdbc:postgresql://127.0.0.1:" + proxy.port() + m.group(3);
    }

    /** Calls until a call is not refused for an unavailable store, or the deadline passes. */
    static <T> T firstSuccess(Supplier<T> call, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        StoreUnavailableException last = null;
        while (System.nanoTime() < end) {
            try {
                return call.get();
            } catch (StoreUnavailableException e) {
                last = e;
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
        throw new AssertionError("the store did not recover within " + deadline, last);
    }
}
