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
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void callsFailClosedWhilePostgresRestartsUnderLoadAndEachBodyRunsOnce(@TempDir Path dataDirectory)
            throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        EmbeddedPostgres postgres = startPostgres(dataDirectory, port);
        FakeProvider provider = new FakeProvider();
        ToolPolicy refund = ToolPolicy.builder("refund").keyTemplate("refund:{id}").downstreamKey(false)
                .retry(Retry.SAFE).lease(Duration.ofSeconds(1))
                .reconciler(() -> op -> provider.applied(op.key()) ? Reconciliation.applied("done:" + op.key())
                        : Reconciliation.notApplied("the provider has no refund " + op.key()), "ProviderReconciler")
                .build();
        Map<String, AtomicInteger> bodyRuns = new ConcurrentHashMap<>();
        AtomicInteger nextKey = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();
        AtomicInteger refusedUnavailable = new AtomicInteger();
        List<Throwable> unexpected = new CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        String url = postgres.getJdbcUrl("postgres", "postgres");
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", url, "postgres", "postgres")
                .build()) {
            Runnable worker = () -> {
                while (!stop.get()) {
                    String key = "refund:r" + nextKey.getAndIncrement();
                    try {
                        runtime.call(refund, key, Map.of("id", key), String.class, () -> {
                            bodyRuns.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                            return provider.apply(key, key);
                        });
                        finished.incrementAndGet();
                    } catch (StoreUnavailableException e) {
                        refusedUnavailable.incrementAndGet();
                    } catch (IdempotencyException e) {
                        // in progress, or a lease lost around the outage: settled by the final pass
                    } catch (Throwable e) {
                        unexpected.add(e);
                    }
                }
            };
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Thread t = new Thread(worker, "load-" + i);
                t.start();
                workers.add(t);
            }
            TestDatabase.await(() -> finished.get() >= 40, Duration.ofSeconds(60), "40 calls before the outage");
            postgres.close();
            int refusedBefore = refusedUnavailable.get();
            // Fail closed: while the server is down every call is refused as retryable.
            TestDatabase.await(() -> refusedUnavailable.get() >= refusedBefore + 4, Duration.ofSeconds(60),
                    "calls refused while PostgreSQL is down");
            postgres = startPostgres(dataDirectory, port);
            int finishedBack = finished.get();
            TestDatabase.await(() -> finished.get() >= finishedBack + 40, Duration.ofSeconds(60),
                    "40 calls after the restart");
            stop.set(true);
            for (Thread t : workers) {
                t.join(TimeUnit.SECONDS.toMillis(60));
                assertThat(t.isAlive()).isFalse();
            }
            assertThat(unexpected).isEmpty();

            // Every key that was ever tried settles: replayed, reconciled, or claimed afresh.
            for (int i = 0; i < nextKey.get(); i++) {
                String key = "refund:r" + i;
                String result = firstSettled(() -> runtime.call(refund, key, Map.of("id", key), String.class, () -> {
                    bodyRuns.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                    return provider.apply(key, key);
                }), Duration.ofSeconds(30));
                assertThat(result).isEqualTo("done:" + key);
                assertThat(bodyRuns.get(key)).as("body runs of " + key).hasValue(1);
            }
            assertThat(provider.effects()).isEqualTo(nextKey.get());
        } finally {
            postgres.close();
        }
    }

    private static EmbeddedPostgres startPostgres(Path dataDirectory, int port) throws IOException {
        return EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(false).setPort(port)
                .start();
    }

    /** Calls until a call is answered (not refused for a retryable reason), or the deadline passes. */
    private static <T> T firstSettled(Supplier<T> call, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        IdempotencyException last = null;
        while (System.nanoTime() < end) {
            try {
                return call.get();
            } catch (StoreUnavailableException | OperationInProgressException | LeaseLostException e) {
                last = e;
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
        throw new AssertionError("the call was not answered within " + deadline, last);
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
