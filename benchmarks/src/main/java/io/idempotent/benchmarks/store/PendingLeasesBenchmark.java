package io.idempotent.benchmarks.store;

import com.zaxxer.hikari.HikariDataSource;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.AsyncToolCalls;
import io.idempotent.runtime.internal.RuntimeAccess;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How many asynchronous calls one JVM holds pending with every lease renewed (issue 42): a
 * {@code CompletableFuture} tool with a 3-second lease, {@code pending} calls at once (the whole
 * bound by default), each value released after {@code holdSeconds}. The figures are counters, not
 * times: {@code held} (calls answered with their own value and never seen with an expired lease),
 * {@code expiredSeen} (the most live leases seen expired at once, by the database's clock, polled
 * every 100 ms), {@code renewalStatements} (statements run on the lease-renewal threads) and
 * {@code statementsPerBeat} (those per third of the lease). One shot, no warm-up: the run is its
 * own measurement. Run it with
 * {@code java -jar benchmarks/target/benchmarks.jar PendingLeasesBenchmark -p store=postgresql}
 * (or {@code h2}, an embedded H2 file as the agent's default store).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(1)
public class PendingLeasesBenchmark {

    /** Calls pending at once. */
    @Param({"1024"})
    public int pending;
    /** {@code postgresql} (embedded, fsync on) or {@code h2} (an embedded file). */
    @Param({"h2", "postgresql"})
    public String store;
    /** How long each value stays pending: four leases. */
    @Param({"12"})
    public int holdSeconds;

    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final String EXPIRED_LIVE = "SELECT count(*) FROM tool_operations WHERE status = 'in_progress'"
            + " AND lease_until <= CURRENT_TIMESTAMP";

    private BenchPostgres postgres;
    private HikariDataSource pool;
    private StatementCountingDataSource counted;
    private IdempotentRuntime runtime;
    private java.nio.file.Path h2Dir;

    /** The counters JMH prints beside the run's time. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Figures {
        /** Calls answered with their own value. */
        public long held;
        /** The most live leases seen expired at once. */
        public long expiredSeen;
        /** Statements on the lease-renewal threads. */
        public long renewalStatements;
        /** Renewal statements per third of the lease. */
        public double statementsPerBeat;
    }

    @Setup(Level.Trial)
    public void start() throws Exception {
        if (store.equals("postgresql")) {
            postgres = BenchPostgres.start(true);
            postgres.createDatabase("leases");
            pool = postgres.pool("leases", 8);
        } else {
            h2Dir = java.nio.file.Files.createTempDirectory("idem-leases");
            pool = new HikariDataSource();
            pool.setJdbcUrl("jdbc:h2:file:" + h2Dir.resolve("store") + ";WRITE_DELAY=0");
            pool.setUsername("sa");
            pool.setPassword("");
            pool.setMaximumPoolSize(8);
        }
        counted = new StatementCountingDataSource(pool);
        runtime = IdempotentRuntime.builder().store("default", counted).build();
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        runtime.close();
        pool.close();
        if (postgres != null) {
            postgres.close();
        }
    }

    @Benchmark
    public void holdPendingCalls(Figures figures) throws Exception {
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        ToolPolicy tool = ToolPolicy.builder("pending_ledger").keyTemplate("ledger:{id}").downstreamKey(true)
                .downstreamRetention(Duration.ofDays(1)).retry(Retry.SAFE).lease(LEASE).build();
        CompletableFuture<Void> downstream = new CompletableFuture<>();
        List<CompletableFuture<String>> calls = new ArrayList<>();
        String run = Long.toString(System.nanoTime());
        java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        for (int i = 0; i < pending; i++) {
            String value = "entry-" + i;
            calls.add(async.call(tool, "ledger:" + run + ":" + i, Map.of("id", i), String.class, null, () -> {
                started.incrementAndGet();
                return downstream.thenApply(released -> value);
            }));
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (started.get() < pending && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        long before = counted.statementsOnThreadsNamed("idempotent-lease-renewal");
        long since = System.nanoTime();
        long expired = 0;
        try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
            while (System.nanoTime() - since < TimeUnit.SECONDS.toNanos(holdSeconds)) {
                try (ResultSet rs = st.executeQuery(EXPIRED_LIVE)) {
                    rs.next();
                    expired = Math.max(expired, rs.getLong(1));
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
        long renewals = counted.statementsOnThreadsNamed("idempotent-lease-renewal") - before;
        downstream.complete(null);
        long held = 0;
        for (int i = 0; i < pending; i++) {
            if (("entry-" + i).equals(calls.get(i).handle((v, e) -> v).get(60, TimeUnit.SECONDS))) {
                held++;
            }
        }
        figures.held = held;
        figures.expiredSeen = expired;
        figures.renewalStatements = renewals;
        figures.statementsPerBeat = renewals / (holdSeconds / (LEASE.toSeconds() / 3.0));
    }
}
