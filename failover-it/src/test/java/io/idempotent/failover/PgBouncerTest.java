package io.idempotent.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.failover.ReplicatedPostgres.Replication;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Policies;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The store behind PgBouncer (issue 47, item 1), a real one in front of the test's primary with
 * fewer server connections than the store has clients. In transaction mode the store runs safely
 * (its statements unnamed), and a URL that asks for named server-side statements is refused at
 * start, naming the pooler and the fix, never failing mid-call; session mode, which gives each
 * client a server session of its own, is the control: named statements are safe there and not
 * refused. The load is the protocol a tool sees: four threads, each id claimed and completed, then
 * called again and replayed, a payload conflict, and no call answered otherwise.
 */
class PgBouncerTest {

    private static final ToolPolicy REVIEW = Policies.manualReview("review", Retry.SAFE).build();
    private static final int THREADS = 4;
    private static final int IDS = 200;

    @RegisterExtension
    final PostgresClusters clusters = new PostgresClusters();

    @Test
    void transactionPoolingRunsTheStoreSafely() throws Exception {
        ReplicatedPostgres cluster = clusters.start("tx-pool", Replication.ASYNCHRONOUS);
        PgBouncer pooler = clusters.pgbouncer(cluster, "transaction");
        try (IdempotentRuntime runtime = runtime(pooler.url(""))) {
            Load load = Load.run(runtime, THREADS, IDS);
            load.print("transaction mode, the store's URL as the docs show it");
            load.assertEveryCallAnsweredOnce();
        }
        assertThat(statuses(cluster)).as("statuses after the load").isEqualTo(Map.of("completed", (long) IDS));
    }

    @Test
    void namedStatementsThroughATransactionPoolerAreRefusedAtStart() {
        ReplicatedPostgres cluster = clusters.start("tx-named", Replication.ASYNCHRONOUS);
        PgBouncer pooler = clusters.pgbouncer(cluster, "transaction");
        AtomicInteger runs = new AtomicInteger();
        try (IdempotentRuntime runtime = runtime(pooler.url("?prepareThreshold=5"))) {
            assertThatThrownBy(() -> runtime.call(REVIEW, "review:1", Map.of("id", 1), String.class, () -> {
                runs.incrementAndGet();
                return "ran";
            })).isInstanceOf(StoreConfigurationException.class).hasMessageContaining("transaction pooler")
                    .hasMessageContaining("pool_mode=transaction").hasMessageContaining("prepareThreshold=5")
                    .hasMessageContaining("prepareThreshold=0").hasMessageNotContaining("table")
                    .matches(e -> !((IdempotencyException) e).retryable(), "not retryable");
        }
        assertThat(runs.get()).as("bodies run").isZero();
    }

    @Test
    void sessionPoolingIsTheControlEvenWithNamedStatementsFromTheFirstUse() throws Exception {
        ReplicatedPostgres cluster = clusters.start("session-pool", Replication.ASYNCHRONOUS);
        PgBouncer pooler = clusters.pgbouncer(cluster, "session");
        try (IdempotentRuntime runtime = runtime(pooler.url("?prepareThreshold=1"))) {
            Load load = Load.run(runtime, THREADS, IDS);
            load.print("session mode, prepareThreshold=1");
            load.assertEveryCallAnsweredOnce();
        }
        assertThat(statuses(cluster)).isEqualTo(Map.of("completed", (long) IDS));
    }

    private static IdempotentRuntime runtime(String url) {
        return IdempotentRuntime.builder().store("default", url, ReplicatedPostgres.USER, ReplicatedPostgres.PASSWORD)
                .build();
    }

    private static Map<String, Long> statuses(ReplicatedPostgres cluster) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection c = cluster.primarySuperuser(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT status, count(*) FROM tool_operations GROUP BY status")) {
            while (rs.next()) {
                counts.put(rs.getString(1), rs.getLong(2));
            }
        }
        return counts;
    }

    /** Every id called twice (the second a replay) and once with another payload, by several threads. */
    private static final class Load {
        private final Map<Integer, AtomicInteger> effects = new ConcurrentHashMap<>();
        private final Map<Integer, String> first = new ConcurrentHashMap<>();
        private final Queue<String> problems = new ConcurrentLinkedQueue<>();
        private long millis;

        static Load run(IdempotentRuntime runtime, int threads, int ids) throws InterruptedException {
            Load load = new Load();
            long start = System.nanoTime();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                Thread worker = new Thread(() -> {
                    for (int id = thread; id < ids; id += threads) {
                        load.callTwice(runtime, id);
                    }
                }, "pooler-load-" + t);
                workers.add(worker);
                worker.start();
            }
            for (Thread worker : workers) {
                worker.join(120_000);
                if (worker.isAlive()) {
                    throw new AssertionError(worker.getName() + " did not finish: a call hangs");
                }
            }
            load.millis = (System.nanoTime() - start) / 1_000_000;
            return load;
        }

        private void callTwice(IdempotentRuntime runtime, int id) {
            String key = "review:" + id;
            try {
                String answer = runtime.call(REVIEW, key, Map.of("id", id), String.class, () -> {
                    effects.computeIfAbsent(id, i -> new AtomicInteger()).incrementAndGet();
                    return "reviewed " + id + " at " + System.nanoTime();
                });
                first.put(id, answer);
                String again = runtime.call(REVIEW, key, Map.of("id", id), String.class, () -> {
                    effects.computeIfAbsent(id, i -> new AtomicInteger()).incrementAndGet();
                    return "ran again";
                });
                if (!again.equals(answer)) {
                    problems.add(key + ": replayed another result");
                }
                try {
                    runtime.call(REVIEW, key, Map.of("id", -id - 1), String.class, () -> "conflict ran");
                    problems.add(key + ": another payload was not refused");
                } catch (io.idempotent.runtime.PayloadConflictException expected) {
                    // the protocol's answer
                }
            } catch (RuntimeException e) {
                problems.add(key + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }

        void print(String run) {
            System.out.printf("pooler figures [%s]: %d ids, %d answered, %d problems, %d ms%n", run, IDS,
                    first.size(), problems.size(), millis);
        }

        void assertEveryCallAnsweredOnce() {
            assertThat(problems).as("calls not answered as the protocol says").isEmpty();
            assertThat(first).hasSize(IDS);
            assertThat(effects.values()).as("effects per id").hasSize(IDS).allMatch(n -> n.get() == 1);
        }
    }
}
